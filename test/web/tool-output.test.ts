import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

const SOURCE = ['export function greet(name) {', "  return 'Hello ' + name;", '}', ''].join('\n');

/** Prints 40 numbered lines, one at a time, then waits: a command still running with output. */
const RUNNING = 'for i in $(seq 1 40); do echo "tick $i"; done; sleep 4';
/** A build that prints 30 lines and fails with its error on stderr, as compilers do. */
const FAILING =
  "node -e \"for (let i = 1; i <= 30; i++) console.log('compiling module ' + i); console.error('error TS2304: Cannot find name greet'); process.exit(2)\"";

const SCRIPT = {
  latencyMs: 200,
  turns: [
    { toolCalls: [{ name: 'read_file', args: { path: 'greet.js' } }] },
    {
      text: 'Using a template literal.',
      toolCalls: [
        {
          name: 'edit_file',
          args: {
            path: 'greet.js',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source, not a template here
            edits: [{ find: "  return 'Hello ' + name;", replace: '  return `Hello ${name}`;' }],
          },
        },
      ],
    },
    { toolCalls: [{ name: 'run_command', args: { command: RUNNING } }] },
    { toolCalls: [{ name: 'run_command', args: { command: FAILING } }] },
    { text: 'The build fails: greet is not declared.' },
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

async function top(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not visible');
  return { x: box.x, y: box.y };
}

describe('tool calls in the web session view (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('shows an edit as a diff one line under the other, and a command by its last lines with stderr and no framing text', async () => {
    server = await startServe({
      script: SCRIPT,
      files: (workspace) => writeFile(path.join(workspace, 'greet.js'), SOURCE),
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'use a template literal in greet.js and build');
    // A running command shows its latest lines, not its first.
    const running = page.locator('.tool-running', { hasText: 'seq 1 40' });
    await running.locator('.output', { hasText: 'tick 40' }).waitFor();
    expect(await running.getByText('tick 1', { exact: true }).count()).toBe(0);
    await screenshot(page, 'tool-output-running');
    await page.getByRole('region', { name: 'Run result' }).waitFor();

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      // The edit: the removed line above the added one, each from the left edge of the block.
      const edit = page.locator('.tool', { hasText: 'edit_file' });
      const removed = edit.locator('.diff-remove', { hasText: "'Hello ' + name" });
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the JavaScript the edit wrote
      const added = edit.locator('.diff-add', { hasText: '`Hello ${name}`' });
      await removed.scrollIntoViewIfNeeded();
      const removedAt = await top(removed);
      const addedAt = await top(added);
      expect(addedAt.y).toBeGreaterThan(removedAt.y);
      expect(Math.abs(addedAt.x - removedAt.x)).toBeLessThan(2);

      // The failed build: its error line and its last output lines are in view; the first are behind a button.
      const failed = page
        .locator('.tool-error')
        .filter({ has: page.locator('summary', { hasText: 'node -e' }) });
      // (The command itself, shown above its output, names the same text.)
      const error = failed.locator('.stream-stderr').getByText('error TS2304: Cannot find name greet');
      await error.scrollIntoViewIfNeeded();
      expect(await error.isVisible()).toBe(true);
      const stdout = failed.locator('.stream-stdout');
      expect(await stdout.getByText('compiling module 30', { exact: true }).isVisible()).toBe(true);
      expect(await stdout.getByText('compiling module 1', { exact: true }).count()).toBe(0);
      const earlier = stdout.getByRole('button', { name: /earlier lines?$/ });
      expect(await earlier.count()).toBe(1);
      // The model's framing is not printed as text; the exit code shows as part of the UI.
      const text = (await failed.textContent()) ?? '';
      expect(text).not.toContain('Exit code:');
      expect(text).not.toContain('Duration:');
      expect(text).not.toContain('--- stdout ---');
      expect(text).not.toContain('(empty)');
      expect(text).toContain('exit 2');
      await screenshot(page, `tool-output-${viewport.width}`);
      await earlier.click();
      expect(await stdout.getByText('compiling module 1', { exact: true }).isVisible()).toBe(true);
      await stdout.getByRole('button', { name: 'Show fewer lines' }).click();
      expect(await stdout.getByText('compiling module 1', { exact: true }).count()).toBe(0);
    }
    await context.close();
  });
});
