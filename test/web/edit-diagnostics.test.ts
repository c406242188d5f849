import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PtyRun } from '../helpers/pty.js';
import {
  launchBrowser,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

/** Where the screenshots a person looks at go (beside the test results). */
const SHOTS = process.env.TASKWEAVE_SHOTS ?? path.resolve('test-results/web');

const MONEY =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text
  'export function formatPrice(cents: number): string {\n  return `${(cents / 100).toFixed(2)} EUR`;\n}\n';
const CART = [
  "import { formatPrice } from './money.js';",
  '',
  'export function total(prices: number[]): string {',
  '  return formatPrice(prices.reduce((sum, price) => sum + price, 0));',
  '}',
  '',
  'export function each(prices: number[]): string[] {',
  '  return prices.map((price) => formatPrice(price));',
  '}',
  '',
].join('\n');
const SCRIPT = {
  turns: [
    { toolCalls: [{ name: 'read_file', args: { path: 'src/money.ts' } }] },
    {
      toolCalls: [
        {
          name: 'edit_file',
          args: {
            path: 'src/money.ts',
            edits: [
              { find: 'formatPrice(cents: number)', replace: 'formatPrice(cents: number, currency: string)' },
            ],
          },
        },
      ],
    },
    { text: 'formatPrice takes the currency now; its two callers in cart.ts still pass one argument.' },
  ],
};

/** The project, with a config that lets a cold server (a busy machine) take its time. */
async function project(workspace: string): Promise<void> {
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
  await writeFile(
    path.join(workspace, '.taskweave', 'config.json'),
    JSON.stringify({ lsp: { waitMs: 60_000 } }),
  );
  await writeFile(
    path.join(workspace, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true },
      include: ['src'],
    }),
  );
  await writeFile(path.join(workspace, 'src', 'money.ts'), MONEY);
  await writeFile(path.join(workspace, 'src', 'cart.ts'), CART);
}

let browser: Browser;
let server: ServeProcess | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('an edit with new problems, as a person sees it', { timeout: 180_000 }, () => {
  it('shows the count and the problems under the diff in the web card', async () => {
    server = await startServe({ script: SCRIPT, files: project });
    const { page } = await openApp(browser, server);
    await page.setViewportSize({ width: 1280, height: 800 });
    await sendGoal(page, 'give formatPrice a currency parameter');
    const card = page.locator('.tool-diagnostics');
    await card.waitFor({ timeout: 150_000 });
    expect(await card.locator('.tool-diagnostics-heading').textContent()).toBe('⚠ 2 new problems');
    // The list replaces the text the model reads under the diff: the problems show once.
    expect(await page.getByText('fix them:').count()).toBe(0);
    expect(await card.locator('li.diagnostic-error').allTextContents()).toEqual([
      'src/cart.ts:4:10 error TS2554: Expected 2 arguments, but got 1.',
      'src/cart.ts:8:32 error TS2554: Expected 2 arguments, but got 1.',
    ]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'lsp-web-edit-diagnostics');
    await page.screenshot({ path: path.join(SHOTS, 'lsp-web-edit-diagnostics.png') });
  });

  it('shows them under the diff on an 80×24 terminal', async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'taskweave-lsp-tty-'));
    await project(workspace);
    const scriptFile = path.join(workspace, '..', `${path.basename(workspace)}-script.json`);
    await writeFile(scriptFile, JSON.stringify(SCRIPT));
    const { code, screen } = await PtyRun.run(
      [
        'run',
        '-C',
        workspace,
        '--approval',
        'auto',
        '--model',
        `script:${scriptFile}`,
        'give formatPrice a currency parameter',
      ],
      { timeoutMs: 150_000 },
    );
    expect(code).toBe(0);
    const plain = screen.join('\n');
    expect(plain).toContain('edit_file("src/money.ts", 1 edit) ✓ 1 edit, 2 new problems');
    expect(plain).toContain('⚠ 2 new problems');
    expect(plain).toContain('src/cart.ts:4:10 error TS2554: Expected 2 arguments, but got 1.');
    // The 80×24 screen as the run left it (read through a headless xterm), drawn by chromium.
    const page = await browser.newPage({ viewport: { width: 80 * 9 + 24, height: 24 * 18 + 24 } });
    const rows = screen;
    const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    await page.setContent(
      `<body style="margin:12px;background:#111;color:#ddd"><pre style="font:15px/18px monospace;width:${80 * 9}px;height:${24 * 18}px;margin:0;white-space:pre-wrap;word-break:break-all">${escapeHtml(rows.join('\n'))}</pre></body>`,
    );
    await page.screenshot({ path: path.join(SHOTS, 'lsp-terminal-edit-diagnostics.png') });
    await page.close();
  });
});
