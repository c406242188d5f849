import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { solidPng } from '../helpers/images.js';
import { PtyRun } from '../helpers/pty.js';
import { launchBrowser } from '../web/serve-harness.js';

const SHOTS = process.env.TASKWEAVE_SHOTS ?? path.resolve('test-results/web');
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterAll(async () => {
  await browser?.close();
});

describe('an image attached on the terminal', { timeout: 120_000 }, () => {
  it('shows one line with its name, dimensions and size on an 80×24 terminal, never its bytes', async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-pty-images-'));
    const png = await solidPng(1280, 800);
    await writeFile(path.join(workspace, 'screenshot.png'), png);
    const script = path.join(workspace, 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        turns: [{ when: '[file image/png sha256:', text: 'The screenshot is one red area, 1280 by 800.' }],
      }),
    );
    const { code, screen } = await PtyRun.run(
      [
        'run',
        '-C',
        workspace,
        '--model',
        `script:${script}`,
        '--image',
        'screenshot.png',
        'what does this show?',
      ],
      { cwd: workspace, env: { XDG_CONFIG_HOME: workspace }, timeoutMs: 90_000 },
    );
    expect(code).toBe(0);
    const plain = screen.join('\n');
    expect(plain).toMatch(/▸ image screenshot\.png · 1280×800 · [\d.]+ KB/);
    expect(plain).toContain('The screenshot is one red area, 1280 by 800.');
    expect(plain).not.toContain(png.subarray(0, 32).toString('base64'));
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 80 * 9 + 24, height: 24 * 18 + 24 } });
    const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    await page.setContent(
      `<body style="margin:12px;background:#111;color:#ddd"><pre style="font:15px/18px monospace;width:${80 * 9}px;height:${24 * 18}px;margin:0;white-space:pre-wrap;word-break:break-all">${escapeHtml(plain)}</pre></body>`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'img-terminal-attached.png') });
    await page.close();
  });
});
