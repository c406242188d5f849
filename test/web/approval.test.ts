import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

let browser: Browser;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

describe('approvals in the web UI (chromium against taskweave serve --approval ask)', {
  timeout: 60_000,
}, () => {
  it('asks before a command and an edit, showing the command and the diff; a denial carries its reason to the model', async () => {
    const server = await startServe({
      args: ['--approval', 'ask', '--sandbox', 'off'],
      files: async (workspace) => {
        await writeFile(path.join(workspace, 'notes.txt'), 'colour: red\n');
        // A price for the script model (its id is its file's path): the header shows the cost.
        const model = `script:${path.join(workspace, '..', `${path.basename(workspace)}-script.json`)}`;
        await mkdir(path.join(workspace, '.taskweave'));
        await writeFile(
          path.join(workspace, '.taskweave', 'config.json'),
          JSON.stringify({ prices: { [model]: { input: 2, output: 8 } } }),
        );
      },
      script: {
        turns: [
          { toolCalls: [{ name: 'run_command', args: { command: 'rm -rf build' } }] },
          {
            when: 'Their reason: keep the build folder',
            toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }],
          },
          {
            when: 'colour: red',
            toolCalls: [
              { name: 'edit_file', args: { path: 'notes.txt', edits: [{ find: 'red', replace: 'teal' }] } },
            ],
          },
          { when: 'teal', text: 'Changed the colour to teal; the build folder is kept.' },
        ],
      },
    });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'clean up and change the colour');

    const banner = page.getByRole('alert', { name: 'A tool call waits for your approval' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Run this command?');
    expect(await banner.textContent()).toContain('rm -rf build');
    await banner.getByRole('textbox', { name: 'Why not (for Deny)' }).fill('keep the build folder');
    await screenshot(page, 'approval-command');
    await banner.getByRole('button', { name: 'Deny' }).click();

    // The edit is asked next, with its diff coloured.
    await expect
      .poll(async () => (await banner.textContent()) ?? '', { timeout: 15_000 })
      .toContain('Allow edit_file?');
    expect(await banner.locator('.diff-remove').first().textContent()).toContain('red');
    expect(await banner.locator('.diff-add').first().textContent()).toContain('teal');
    await screenshot(page, 'approval-diff');
    await banner.getByRole('button', { name: 'Allow', exact: true }).click();

    const result = page.getByRole('region', { name: 'Run result' });
    await result.waitFor({ timeout: 15_000 });
    expect(await result.textContent()).toContain('Changed the colour to teal');
    expect(await banner.count()).toBe(0);
    // Tokens and what they cost at the configured price ($2 / $8 per million).
    const header = (await page.locator('.session-header').textContent()) ?? '';
    const [, input, output, cost] = /([\d,]+) in \/ ([\d,]+) out tokens · \$(\d+\.\d+)/.exec(header) ?? [];
    const tokens = (text?: string) => Number(text?.replace(/,/g, ''));
    expect(Number(cost)).toBeCloseTo((tokens(input) * 2 + tokens(output) * 8) / 1_000_000, 4);
    // Once answered, the card says what became of the call, not that it was asked.
    expect(await page.getByText('Command denied: keep the build folder').count()).toBe(1);
    expect(await page.getByText('edit_file allowed · 1 edit').count()).toBe(1);
    expect(await page.getByText(/asked for approval|waits for your approval/).count()).toBe(0);
    expect(await readFile(path.join(server.workspace, 'notes.txt'), 'utf8')).toBe('colour: teal\n');
    await context.close();
  });

  it('the approval mode in the header switches the server for every open page; the next call follows it', async () => {
    const server = await startServe({
      args: ['--approval', 'ask', '--sandbox', 'off'],
      script: {
        turns: [
          { when: 'first', toolCalls: [{ name: 'write_file', args: { path: 'asked.txt', content: 'a\n' } }] },
          { when: 'first', text: 'Wrote asked.txt.' },
          {
            when: 'second',
            toolCalls: [{ name: 'write_file', args: { path: 'unasked.txt', content: 'u\n' } }],
          },
          { when: 'second', text: 'Wrote unasked.txt.' },
        ],
      },
    });
    servers.push(server);
    const first = await openApp(browser, server);
    const second = await openApp(browser, server);
    const modeOf = (page: typeof first.page) => page.getByRole('combobox', { name: 'Approval mode' });
    for (const { page } of [first, second])
      await expect.poll(() => modeOf(page).inputValue(), { timeout: 10_000 }).toBe('ask');
    expect(await first.page.locator('.approval-mode').textContent()).toContain('sandbox off');

    await sendGoal(first.page, 'first file');
    const banner = first.page.getByRole('alert', { name: 'A tool call waits for your approval' });
    await banner.waitFor();
    // Switched on the other page while the call waits: both pages show the server's new mode.
    await modeOf(second.page).selectOption('edits');
    await expect.poll(() => modeOf(first.page).inputValue(), { timeout: 10_000 }).toBe('edits');
    await screenshot(first.page, 'approval-mode-header');
    await banner.getByRole('button', { name: 'Allow', exact: true }).click();
    const result = first.page.getByRole('region', { name: 'Run result' });
    await result.waitFor({ timeout: 15_000 });
    expect(await result.textContent()).toContain('Wrote asked.txt.');

    // The next file change runs unasked, in edits mode.
    await sendGoal(first.page, 'second file');
    await expect
      .poll(async () => (await first.page.locator('main').textContent()) ?? '', { timeout: 15_000 })
      .toContain('Wrote unasked.txt.');
    expect(await banner.count()).toBe(0);
    expect(await readFile(path.join(server.workspace, 'unasked.txt'), 'utf8')).toBe('u\n');
    await first.context.close();
    await second.context.close();
  });
});
