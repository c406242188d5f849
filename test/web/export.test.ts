import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

const SCRIPT = {
  latencyMs: 100,
  turns: [
    {
      toolCalls: [
        {
          name: 'plan_actions',
          args: {
            tasks: [{ id: 'page', title: 'Write page.html', description: 'Write it', depends_on: [] }],
          },
        },
      ],
    },
    {
      task: 'page',
      toolCalls: [
        {
          name: 'write_file',
          args: { path: 'page.html', content: '<script>document.title="pwned"</script>\n' },
        },
        { name: 'task_completed', args: { summary: 'wrote page.html' } },
      ],
    },
    { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote **page.html**.' } }] },
  ],
};

let browser: Browser;
let server: ServeProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Export in the web UI (chromium against taskweave serve)', { timeout: 60_000 }, () => {
  it('the session header downloads the session as HTML (self-contained, no script) and markdown', async () => {
    server = await startServe({ script: SCRIPT, args: ['--yes'] });
    const { page, context } = await openApp(browser, server);
    // No session yet: nothing to export.
    expect(await page.getByRole('group', { name: 'Export this session' }).count()).toBe(0);
    await sendGoal(page, 'write page.html');
    await page.getByRole('region', { name: 'Run result' }).waitFor();
    const menu = page.getByRole('group', { name: 'Export this session' });
    await menu.waitFor();
    await screenshot(page, 'export-header');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('button', { name: 'HTML' }).click(),
    ]);
    const sessionId = /#\/s\/(ses_[a-z0-9]+)/.exec(page.url())?.[1];
    expect(download.suggestedFilename()).toBe(`taskweave-${sessionId}.html`);
    // Saved under its name (a browser tells a page by the .html of a file: URL).
    const file = path.join(
      await mkdtemp(path.join(tmpdir(), 'taskweave-download-')),
      download.suggestedFilename(),
    );
    await download.saveAs(file);
    const html = await readFile(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');

    // The downloaded page, opened as a file without JavaScript: readable, nothing loaded or run.
    const offline = await browser.newContext({ javaScriptEnabled: false });
    const view = await offline.newPage();
    const requests: string[] = [];
    view.on('request', (request) => requests.push(request.url()));
    await view.goto(pathToFileURL(file).href);
    expect(await view.title()).toBe('write page.html · taskweave session');
    expect(await view.locator('script').count()).toBe(0);
    expect(requests).toEqual([pathToFileURL(file).href]);
    await offline.close();

    const [markdown] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('button', { name: 'Markdown' }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe(`taskweave-${sessionId}.md`);
    expect(await readFile(await markdown.path(), 'utf8')).toContain(
      '### Final answer\n\nWrote **page.html**.',
    );
    await context.close();
  });
});
