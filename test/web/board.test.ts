import type { Browser, Page } from 'playwright-core';
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

function row(page: Page, title: string) {
  return page.getByRole('listitem', { name: `Task ${title}` });
}

async function statusOf(page: Page, title: string): Promise<string | null> {
  return row(page, title).locator('.state-chip').first().textContent();
}

describe('the task board and the sessions list (chromium against taskweave serve)', {
  timeout: 90_000,
}, () => {
  it('adds tasks, which the server starts on its own; completes, cancels and deletes them; live', async () => {
    // The first task's model call takes long: it stays running while the others wait in the queue.
    const server = await startServe({ script: { turns: [{ latencyMs: 60_000, text: 'Still thinking.' }] } });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await page.getByRole('link', { name: 'Tasks' }).click();
    const field = page.getByRole('textbox', { name: 'New task' });
    for (const title of ['Upgrade the test runner', 'Write the changelog', 'Remove the old build script']) {
      await field.fill(title);
      await field.press('Enter');
      await row(page, title).waitFor();
    }
    // The server's worker took the first task: the board shows it without a reload.
    await expect
      .poll(() => statusOf(page, 'Upgrade the test runner'), { timeout: 10_000 })
      .toBe('in progress');
    expect(await statusOf(page, 'Write the changelog')).toBe('pending');
    await screenshot(page, 'task-board');

    await row(page, 'Write the changelog').getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => statusOf(page, 'Write the changelog'), { timeout: 10_000 }).toBe('completed');
    await row(page, 'Remove the old build script')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect.poll(() => row(page, 'Remove the old build script').count(), { timeout: 10_000 }).toBe(0);
    await row(page, 'Upgrade the test runner').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => statusOf(page, 'Upgrade the test runner'), { timeout: 10_000 }).toBe('cancelled');
    await row(page, 'Upgrade the test runner')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect.poll(() => row(page, 'Upgrade the test runner').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('lists past sessions with goal, status and tokens; opening one replays it', async () => {
    const server = await startServe({
      script: {
        turns: [
          {
            text: 'Reading it.',
            toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: '# Notes\n' } }],
          },
          { text: 'Wrote notes.md.' },
        ],
      },
    });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'start the notes file');
    await page.getByRole('region', { name: 'Run result' }).waitFor();

    await page.getByRole('link', { name: 'Sessions' }).click();
    const entry = page.getByRole('link', { name: /start the notes file/ });
    await entry.waitFor();
    expect(await entry.textContent()).toMatch(/completed.*1 run.*in \/ [\d,]+ out tokens/);
    await screenshot(page, 'sessions');

    // A new page (another browser tab) opens the session from the list and sees it replayed.
    const other = await context.newPage();
    await other.goto(`${server.origin}/#/sessions`);
    await other.getByRole('link', { name: /start the notes file/ }).click();
    await other.getByRole('region', { name: 'Run result' }).getByText('Wrote notes.md.').waitFor();
    expect(await other.getByRole('article', { name: 'Step 1' }).locator('summary').textContent()).toContain(
      'notes.md',
    );
    await context.close();
  });
});
