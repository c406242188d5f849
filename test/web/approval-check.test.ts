import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  SCREENSHOTS,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

/*
 * A task's check asked for approval is the command the approved plan gave, not one the model
 * chose now (issue 40, item 5): the web's approval card says so, as the terminal does; a call of
 * the model in the same task is asked as a plain command.
 */

let browser: Browser;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

/** Where the screenshots a person looks at for this change are kept, besides test-results. */
const NOTES_SHOTS = process.env.TASKWEAVE_NOTES_SHOTS;

async function keepShot(page: Parameters<typeof screenshot>[0], name: string): Promise<void> {
  await screenshot(page, name);
  if (NOTES_SHOTS === undefined || NOTES_SHOTS === '') return;
  await mkdir(NOTES_SHOTS, { recursive: true });
  await copyFile(path.join(SCREENSHOTS, `${name}.png`), path.join(NOTES_SHOTS, `${name}.png`));
}

describe("a task's check on the web's approval card (chromium against taskweave serve)", {
  timeout: 90_000,
}, () => {
  it('says the check is the approved plan’s, at 1280 and 390 px; the model’s own command is a plain one', async () => {
    const server = await startServe({
      args: ['--approval', 'ask', '--sandbox', 'off'],
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    {
                      id: 'a',
                      title: 'Write the note',
                      description: 'write note.txt',
                      depends_on: [],
                      check: 'test -s note.txt',
                    },
                  ],
                },
              },
            ],
          },
          { task: 'a', toolCalls: [{ name: 'run_command', args: { command: 'echo hi > note.txt' } }] },
          { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'written' } }] },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'The note is written and checked.' } }] },
        ],
      },
    });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write a note, checked');
    await page.getByRole('button', { name: 'Approve plan' }).click();

    const banner = page.getByRole('alert', { name: 'A tool call waits for your approval' });
    await banner.waitFor({ timeout: 30_000 });
    // The model's own command: a plain request, no word of a check.
    expect(await banner.textContent()).toContain('Run this command?');
    expect(await banner.textContent()).toContain('echo hi > note.txt');
    expect(await banner.getByRole('note').count()).toBe(0);
    await banner.getByRole('button', { name: 'Allow', exact: true }).click();

    // The task's check, from the plan the user approved.
    await expect
      .poll(async () => (await banner.textContent()) ?? '', { timeout: 30_000 })
      .toContain("Run this task's check?");
    expect(await banner.locator('.approval-preview').textContent()).toBe('test -s note.txt');
    expect(await banner.getByRole('note').textContent()).toBe(
      'This is the check of task a, as in the plan you approved: it tells whether the task is done. The model did not choose it now.',
    );
    // A one-task plan says so in the singular, in the plan's header and in the timeline.
    expect(await page.locator('.plan-header').textContent()).toContain('1 task · ');
    expect(await page.getByText('Plan proposed: 1 task', { exact: true }).count()).toBe(1);
    await keepShot(page, 'work4-check-approval-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await banner.getByRole('note').waitFor();
    await keepShot(page, 'work4-check-approval-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await banner.getByRole('button', { name: 'Allow', exact: true }).click();
    await page
      .getByRole('region', { name: 'Run result' })
      .filter({ hasText: 'The note is written and checked.' })
      .waitFor({ timeout: 30_000 });
    // In the conversation the settled request keeps saying what it was.
    const settled = await page.locator('.approval-item').allTextContents();
    expect(settled.map((text) => text.replace(/ · [\d.]+m?s$/, ''))).toEqual([
      'Command allowed · exit 0',
      "The task's check allowed · exit 0",
    ]);
    await context.close();
  });
});
