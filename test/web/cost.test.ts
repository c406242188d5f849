import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

/** The fixed price of the script model, in US dollars per million tokens. */
const PRICE = { input: 2, output: 8 };

/** Gives the server's script model (its id is its file's path, see startServe) the fixed price. */
async function priceScriptModel(workspace: string): Promise<void> {
  const model = `script:${path.join(workspace, '..', `${path.basename(workspace)}-script.json`)}`;
  await mkdir(path.join(workspace, '.taskweave'));
  await writeFile(
    path.join(workspace, '.taskweave', 'config.json'),
    JSON.stringify({ prices: { [model]: PRICE } }),
  );
}

function completes(task: string) {
  return {
    task,
    latencyMs: 100,
    toolCalls: [
      { name: 'write_file', args: { path: `${task}.txt`, content: `${task}\n` } },
      { name: 'task_completed', args: { summary: `${task} is done` } },
    ],
  };
}

const PLAN_SCRIPT = {
  turns: [
    {
      text: 'I will plan this.',
      toolCalls: [
        {
          name: 'plan_actions',
          args: {
            tasks: [
              { id: 'api', title: 'Write the API', description: 'Write api.txt.', depends_on: [] },
              { id: 'docs', title: 'Write the docs', description: 'Write docs.txt.', depends_on: ['api'] },
            ],
          },
        },
      ],
    },
    completes('api'),
    completes('docs'),
    { text: 'The API and its docs are written.' },
  ],
};

const tokens = (text?: string) => Number(text?.replace(/,/g, ''));

async function headerText(page: Page): Promise<string> {
  return (await page.locator('.session-header').textContent()) ?? '';
}

describe('cost in the web UI (chromium against taskweave serve, a script model priced by the config)', {
  timeout: 90_000,
}, () => {
  it('the session header, each plan task and the goal on the task board show tokens and cost', async () => {
    const server = await startServe({ args: ['--yes'], files: priceScriptModel, script: PLAN_SCRIPT });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write the API and its docs');
    await page
      .getByRole('region', { name: 'Run result' })
      .filter({ hasText: 'The API and its docs are written.' })
      .waitFor({ timeout: 30_000 });

    // The header adds up the cost every model call carried: tokens at the configured price.
    await expect.poll(() => headerText(page)).toMatch(/tokens · \$/);
    const [, input, output, cost] =
      /([\d,]+) in \/ ([\d,]+) out tokens · \$(\d+\.\d+)/.exec(await headerText(page)) ?? [];
    expect(Number(cost)).toBeCloseTo((tokens(input) * PRICE.input + tokens(output) * PRICE.output) / 1e6, 4);

    // Each task of the plan graph carries what its own calls cost.
    await expect.poll(() => page.locator('.task-node').count()).toBe(2);
    for (const id of ['api', 'docs']) {
      const chip = page.locator(`.task-node[data-task-id="${id}"] .state-chip`);
      await expect.poll(async () => (await chip.textContent()) ?? '').toMatch(/^completed · \$0\.\d{2,4}$/);
    }
    // Each step's card and the run's result say what that step and the run cost.
    const stepHeaders = await page.locator('.card.step .card-header').allTextContents();
    // The plan step and one per task (the final answer is the result card).
    expect(stepHeaders).toHaveLength(3);
    for (const text of stepHeaders) expect(text).toMatch(/[\d,]+ in \/ [\d,]+ out tokens · \$0\.\d{2,4}$/);
    expect(await page.getByRole('region', { name: 'Run result' }).textContent()).toContain(
      `out tokens · $${cost}`,
    );
    await screenshot(page, 'cost-session');

    // The task board: the goal's row says what its run used.
    await page.getByRole('link', { name: 'Tasks' }).click();
    const goal = page.getByRole('listitem', { name: /^Task write the API/ });
    await goal.waitFor();
    const usage = goal.locator('.task-usage').first();
    await expect
      .poll(async () => (await usage.textContent()) ?? '', { timeout: 10_000 })
      .toMatch(/^[\d,]+ in \/ [\d,]+ out tokens · \$0\.\d{2,4}$/);
    const [, boardIn, boardOut, boardCost] =
      /([\d,]+) in \/ ([\d,]+) out tokens · \$(\d+\.\d+)/.exec((await usage.textContent()) ?? '') ?? [];
    // One run: the same tokens and cost as the session's header.
    expect([boardIn, boardOut, boardCost]).toEqual([input, output, cost]);
    await screenshot(page, 'cost-task-board');
    // The sessions page: the session's tokens and cost.
    await page.getByRole('link', { name: 'Sessions' }).click();
    await expect
      .poll(async () => (await page.locator('.session-row').first().textContent()) ?? '')
      .toContain(`out tokens · $${cost}`);
    await context.close();
  });

  it('a model without a price shows tokens only, in the header and on the board', async () => {
    const server = await startServe({ script: { turns: [{ text: 'Hello.' }] } });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'say hello');
    await page
      .getByRole('region', { name: 'Run result' })
      .filter({ hasText: 'Hello.' })
      .waitFor({ timeout: 30_000 });
    await expect.poll(() => headerText(page)).toMatch(/[\d,]+ in \/ [\d,]+ out tokens/);
    expect(await headerText(page)).not.toContain('$');
    await page.getByRole('link', { name: 'Tasks' }).click();
    const usage = page.getByRole('listitem', { name: /^Task say hello/ }).locator('.task-usage');
    await expect
      .poll(async () => (await usage.textContent()) ?? '', { timeout: 10_000 })
      .toMatch(/^[\d,]+ in \/ [\d,]+ out tokens$/);
    await context.close();
  });
});
