import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  planFitted,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

let browser: Browser;
const servers: ServeProcess[] = [];

async function serve(script: unknown): Promise<ServeProcess> {
  const server = await startServe({ script });
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

interface Task {
  id: string;
  title: string;
  depends_on?: string[];
  check?: string;
}

function planTurn(tasks: Task[], extra: Record<string, unknown> = {}) {
  return {
    ...extra,
    text: 'I will plan this.',
    toolCalls: [
      {
        name: 'plan_actions',
        args: { tasks: tasks.map((task) => ({ description: `Do ${task.title}.`, depends_on: [], ...task })) },
      },
    ],
  };
}

function completes(task: string, latencyMs = 200) {
  return {
    task,
    latencyMs,
    text: `Working on ${task}.`,
    toolCalls: [
      { name: 'write_file', args: { path: `${task}.txt`, content: `${task}\n` } },
      { name: 'task_completed', args: { summary: `${task} is done` } },
    ],
  };
}

const FINAL = { text: 'Every task is done.' };

function nodeStates(page: Page): Promise<Record<string, string>> {
  return page
    .locator('.task-node')
    .evaluateAll((nodes) =>
      Object.fromEntries(
        nodes.map((node) => [node.getAttribute('data-task-id'), node.getAttribute('data-state')]),
      ),
    );
}

async function waitForResult(page: Page, text: string): Promise<void> {
  await page
    .getByRole('region', { name: 'Run result' })
    .filter({ hasText: text })
    .waitFor({ timeout: 30_000 });
}

describe('the plan in the web UI (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('draws the proposed plan; after Approve the nodes run, two at the same time, and turn completed', async () => {
    const tasks: Task[] = [
      { id: 'setup', title: 'Create the project', check: 'test -f setup.txt' },
      { id: 'api', title: 'Write the API', depends_on: ['setup'] },
      { id: 'ui', title: 'Write the UI', depends_on: ['setup'] },
      { id: 'docs', title: 'Write the docs', depends_on: ['api'] },
    ];
    const server = await serve({
      turns: [
        planTurn(tasks),
        completes('setup'),
        completes('api', 2500),
        completes('ui', 2500),
        completes('docs', 300),
        FINAL,
      ],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'build the app with an API, a UI and docs');
    const approve = page.getByRole('button', { name: 'Approve plan' });
    await approve.waitFor();
    // The graph (React Flow, elkjs) loads after the page: it is a chunk of its own.
    await expect.poll(() => page.locator('.task-node').count()).toBe(4);
    expect(Object.values(await nodeStates(page))).toEqual(['pending', 'pending', 'pending', 'pending']);
    // The critical path setup → api → docs is marked, and so are its arrows.
    expect(
      await page
        .locator('.task-node.critical')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-task-id'))),
    ).toEqual(['setup', 'api', 'docs']);
    // Edges are drawn once both of their nodes are measured (a ResizeObserver callback later).
    await expect.poll(() => page.locator('.react-flow__edge.critical').count()).toBe(2);
    expect(await page.locator('.task-node[data-task-id="setup"]').textContent()).toContain(
      'test -f setup.txt',
    );
    await screenshot(page, 'plan-proposed');

    await approve.click();
    await expect
      .poll(
        async () => Object.values(await nodeStates(page)).filter((state) => state === 'in_progress').length,
        {
          timeout: 15_000,
          interval: 100,
        },
      )
      .toBe(2);
    expect(await nodeStates(page)).toMatchObject({
      setup: 'completed',
      api: 'in_progress',
      ui: 'in_progress',
    });
    expect(await page.locator('.task-node[data-task-id="api"]').textContent()).toMatch(/running · \d/);
    await screenshot(page, 'plan-running');

    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const phone = await narrow.newPage();
    await phone.goto(server.url);
    await phone.goto(page.url());
    await planFitted(phone, 4);
    await screenshot(phone, 'narrow-plan-running');
    const overflow = await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await narrow.close();

    await waitForResult(page, 'Every task is done.');
    expect(Object.values(await nodeStates(page))).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ]);

    // Clicking a node shows that task's steps only.
    await page.getByRole('button', { name: /^Task ui: Write the UI/ }).click();
    const stepCards = page.getByRole('article', { name: /^Step \d+/ });
    await expect.poll(() => stepCards.count()).toBeGreaterThan(0);
    const labels = await stepCards.evaluateAll((cards) =>
      cards.map((card) => card.getAttribute('aria-label')),
    );
    expect(labels.every((label) => label?.endsWith('of task ui'))).toBe(true);
    await page.getByRole('button', { name: /show all/ }).click();
    expect(await stepCards.count()).toBeGreaterThan(labels.length);
    await context.close();
  });

  it('rejects a plan with feedback and approves the revision', async () => {
    const first: Task[] = [
      { id: 'code', title: 'Write the code' },
      { id: 'tests', title: 'Write the tests', depends_on: ['code'] },
    ];
    const revised: Task[] = [...first, { id: 'readme', title: 'Write the README', depends_on: ['code'] }];
    const server = await serve({
      turns: [
        planTurn(first),
        planTurn(revised, { when: 'Add a README task' }),
        completes('code'),
        completes('tests'),
        completes('readme'),
        FINAL,
      ],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write the library');
    await page.getByRole('button', { name: 'Approve plan' }).waitFor();
    await page.getByRole('textbox', { name: 'Feedback on the plan' }).fill('Add a README task');
    await page.getByRole('button', { name: 'Reject with feedback' }).click();
    await expect.poll(() => page.locator('.task-node').count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByText('rejected: “Add a README task”').count()).toBe(1);
    await page.getByRole('button', { name: 'Approve plan' }).click();
    await waitForResult(page, 'Every task is done.');
    await expect
      .poll(() => nodeStates(page))
      .toEqual({ code: 'completed', tests: 'completed', readme: 'completed' });
    await context.close();
  });

  it('decides a failed task: Retry runs it again, Skip lets its dependents run', async () => {
    const server = await serve({
      turns: [
        planTurn([
          { id: 'port', title: 'Free the port' },
          { id: 'serve', title: 'Start the server', depends_on: ['port'] },
        ]),
        { task: 'port', toolCalls: [{ name: 'fail_task', args: { reason: 'port 8080 is taken' } }] },
        { task: 'port', toolCalls: [{ name: 'fail_task', args: { reason: 'port 8080 is still taken' } }] },
        completes('serve'),
        FINAL,
      ],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'start the server on 8080');
    await page.getByRole('button', { name: 'Approve plan' }).click();
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.getByText('port 8080 is taken').waitFor();
    expect(await decision.textContent()).toContain('Free the port');
    expect(await decision.textContent()).toContain('Start the server');
    await expect.poll(() => nodeStates(page)).toEqual({ port: 'failed', serve: 'blocked' });
    await screenshot(page, 'failure-decision');

    await decision.getByRole('button', { name: 'Retry' }).click();
    await decision.getByText('port 8080 is still taken').waitFor();
    await decision.getByRole('button', { name: 'Skip' }).click();
    await waitForResult(page, 'Every task is done.');
    expect(await decision.count()).toBe(0);
    await expect.poll(() => nodeStates(page)).toEqual({ port: 'skipped', serve: 'completed' });
    await context.close();
  });
});
