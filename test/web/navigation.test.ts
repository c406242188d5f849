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

async function serve(options: Parameters<typeof startServe>[0]): Promise<ServeProcess> {
  const server = await startServe(options);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

const LONG_GOAL =
  'build the two parts of the application: the command-line interface first, and then the documentation website';

const TABLE_ANSWER =
  'Every task is **done**.\n\n| file | lines |\n| --- | --- |\n| cli.txt | 1 |\n| docs.txt | 1 |';

function completes(task: string) {
  return {
    task,
    toolCalls: [
      { name: 'write_file', args: { path: `${task}.txt`, content: `${task}\n` } },
      { name: 'task_completed', args: { summary: `${task} is done` } },
    ],
  };
}

/** Whether what is drawn at the centre of an element is that element (or inside it). */
function onTop(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    const box = element.getBoundingClientRect();
    return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  })()`);
}

describe('getting around the web UI (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('goes back to the session watched; a later goal without a plan hides the earlier plan; the board shows whole titles and markdown; tables have borders', async () => {
    const server = await serve({
      args: ['--yes'],
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'cli', title: 'Write the CLI', description: 'The CLI.', depends_on: [] },
                    { id: 'docs', title: 'Write the docs', description: 'The docs.', depends_on: ['cli'] },
                  ],
                },
              },
            ],
          },
          completes('cli'),
          completes('docs'),
          { text: TABLE_ANSWER },
          { when: 'say hello', text: 'Hello.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, LONG_GOAL);
    const result = page.getByRole('region', { name: 'Run result' });
    await result.filter({ hasText: 'Every task is done.' }).waitFor({ timeout: 30_000 });
    expect(await result.locator('td', { hasText: 'cli.txt' }).count()).toBe(1);
    // A string, evaluated in the page: the tests are type-checked without the DOM library.
    expect(
      await page.evaluate("getComputedStyle(document.querySelector('.completion td')).borderTopStyle"),
    ).toBe('solid');
    expect(await page.getByRole('region', { name: 'Plan' }).count()).toBe(1);
    const sessionUrl = page.url();

    await sendGoal(page, 'now say hello');
    await result.filter({ hasText: 'Hello.' }).waitFor();
    expect(await page.getByRole('region', { name: 'Plan' }).count()).toBe(0);

    // The task board: the goal's whole first line (not cut mid-word), its answer as markdown.
    await page.getByRole('link', { name: 'Tasks' }).click();
    const goal = page.locator('.task-row', { hasText: 'documentation website' }).first();
    await goal.waitFor();
    expect(await goal.locator('.task-title').first().textContent()).toContain(LONG_GOAL);
    expect(await goal.locator('strong', { hasText: 'done' }).count()).toBeGreaterThan(0);
    expect(await goal.textContent()).not.toContain('**done**');
    await screenshot(page, 'navigation-board');

    // "Session" goes back to the session watched, not to a new one; "New session" starts one.
    await page.getByRole('link', { name: 'Session', exact: true }).click();
    await expect.poll(() => page.url()).toBe(sessionUrl);
    await page.getByRole('region', { name: 'Run result' }).filter({ hasText: 'Hello.' }).waitFor();
    await page.getByRole('link', { name: 'New session' }).click();
    await page.getByText('Give taskweave a goal').waitFor();
    await context.close();
  });

  it('an approval takes the focus (Enter allows) and says what Always allows; the "↓ Latest" pill never covers the answer', async () => {
    const longText = Array.from({ length: 60 }, (_, index) => `Line ${index + 1} of what I found.`).join(
      '\n\n',
    );
    const server = await serve({
      args: ['--approval', 'ask', '--sandbox', 'off'],
      script: {
        turns: [
          {
            text: longText,
            toolCalls: [{ name: 'run_command', args: { command: 'npm run build --silent' } }],
          },
          {
            toolCalls: [{ name: 'request_input', args: { question: 'Which port should it use?' } }],
          },
          { when: '8080', text: 'It uses port 8080.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'check the port');
    const approval = page.getByRole('alert', { name: 'A tool call waits for your approval' });
    await approval.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.evaluate('document.activeElement?.textContent'), { timeout: 5000 })
      .toBe('Allow');
    expect(await approval.textContent()).toContain(
      'every command that starts with `npm run build` runs unasked until this session ends',
    );
    await screenshot(page, 'navigation-approval');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');

    const banner = page.getByRole('alert', { name: 'The agent asks' });
    await banner.waitFor({ timeout: 20_000 });
    // Scrolled up, the pill shows; it does not sit over the answer field or its button.
    await page.locator('.scroller').evaluate((scroller) => scroller.scrollTo(0, 0));
    const pill = page.getByRole('button', { name: '↓ Latest' });
    await pill.waitFor();
    await screenshot(page, 'navigation-pill');
    for (const selector of ['.answer-form button', '.answer-form textarea'])
      expect(await onTop(page, selector), selector).toBe(true);
    const pillBox = await pill.boundingBox();
    const bannerBox = await banner.boundingBox();
    expect(pillBox!.y + pillBox!.height).toBeLessThanOrEqual(bannerBox!.y);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.scroller').evaluate((scroller) => scroller.scrollTo(0, 0));
    await pill.waitFor();
    for (const selector of ['.answer-form button', '.answer-form textarea'])
      expect(await onTop(page, selector), `${selector} at 390 px`).toBe(true);
    await screenshot(page, 'navigation-pill-390');
    await context.close();
  });
});
