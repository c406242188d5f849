import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openApp,
  planFitted,
  SCREENSHOTS,
  type ServeProcess,
  screenshot,
  sendGoal,
  startServe,
} from './serve-harness.js';

/**
 * The README's screenshots of the web UI, taken mid-run: `TASKWEAVE_README_SCREENSHOTS=1 npx
 * vitest run test/web/readme-screenshots.test.ts` copies them into docs/screenshots/.
 */
const README_SCREENSHOTS = path.resolve('docs/screenshots');
const UPDATE = process.env.TASKWEAVE_README_SCREENSHOTS === '1';

let browser: Browser;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.stop()));
});

async function keep(name: string, readmeName: string): Promise<void> {
  if (UPDATE)
    await copyFile(path.join(SCREENSHOTS, `${name}.png`), path.join(README_SCREENSHOTS, readmeName));
}

/** A command that prints a numbered line every 0.4 s: output that streams while it runs. */
function streams(what: string, lines: number): string {
  return `for i in $(seq 1 ${lines}); do echo "${what} $i of ${lines}"; sleep 0.4; done`;
}

function planTurn(
  text: string,
  tasks: { id: string; title: string; depends_on?: string[]; check?: string }[],
) {
  return {
    text,
    toolCalls: [
      {
        name: 'plan_actions',
        args: { tasks: tasks.map((task) => ({ description: `${task.title}.`, depends_on: [], ...task })) },
      },
    ],
  };
}

function streamingTask(task: string, text: string, command: string) {
  return [
    { task, text, toolCalls: [{ name: 'run_command', args: { command } }] },
    { task, toolCalls: [{ name: 'task_completed', args: { summary: `${task} is done` } }] },
  ];
}

describe('the README screenshots of the web UI (chromium against taskweave serve)', {
  timeout: 90_000,
}, () => {
  it('a plan mid-run: two tasks streaming their output at the same time', async () => {
    const server = await startServe({
      args: ['--yes'],
      script: {
        turns: [
          planTurn(
            'I will plan this: the project first, then the API and the UI side by side, then the docs.',
            [
              { id: 'setup', title: 'Create the project', check: 'test -f package.json' },
              { id: 'api', title: 'Write the API', depends_on: ['setup'] },
              { id: 'ui', title: 'Write the UI', depends_on: ['setup'] },
              { id: 'docs', title: 'Write the docs', depends_on: ['api', 'ui'] },
            ],
          ),
          {
            task: 'setup',
            text: 'Creating package.json.',
            toolCalls: [
              { name: 'write_file', args: { path: 'package.json', content: '{ "name": "webapp" }\n' } },
              { name: 'task_completed', args: { summary: 'package.json created' } },
            ],
          },
          ...streamingTask('api', 'Compiling the **API** routes.', streams('api: compiled route', 25)),
          ...streamingTask('ui', 'Bundling the **UI** components.', streams('ui: bundled component', 25)),
          { task: 'docs', toolCalls: [{ name: 'task_completed', args: { summary: 'docs written' } }] },
          { text: 'The app has its API, its UI and its docs.' },
        ],
      },
    });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'build the app with an API, a UI and docs');
    const running = page.locator('.tool-running');
    // Both tasks' commands run at once, each streaming into its own card.
    for (const what of ['api: compiled route 4', 'ui: bundled component 4'])
      await running.locator('.output', { hasText: what }).waitFor({ timeout: 30_000 });
    expect(await running.count()).toBe(2);
    const api = page.getByRole('article', { name: /of task api$/ });
    const ui = page.getByRole('article', { name: /of task ui$/ });
    expect(await api.textContent()).not.toContain('bundled component');
    expect(await ui.textContent()).not.toContain('compiled route');
    await planFitted(page, 4);
    await screenshot(page, 'readme-plan-running');
    await keep('readme-plan-running', 'web-plan-running.png');
    await context.close();
  });

  it('a failed task waiting for the decision', async () => {
    const server = await startServe({
      args: ['--yes'],
      script: {
        turns: [
          planTurn('I will free the port first, then start the server.', [
            { id: 'port', title: 'Free port 8080' },
            {
              id: 'serve',
              title: 'Start the server',
              depends_on: ['port'],
              check: 'curl -sf localhost:8080',
            },
          ]),
          {
            task: 'port',
            text: 'Checking what holds the port.',
            toolCalls: [
              {
                name: 'run_command',
                args: { command: 'echo "tcp LISTEN 0.0.0.0:8080 users:((node,pid=4242))"' },
              },
            ],
          },
          {
            task: 'port',
            toolCalls: [
              { name: 'fail_task', args: { reason: 'port 8080 is held by another node process (pid 4242)' } },
            ],
          },
        ],
      },
    });
    servers.push(server);
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'start the dev server on port 8080');
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.waitFor({ timeout: 30_000 });
    await page.locator('.task-node[data-state="blocked"]').waitFor();
    await planFitted(page, 2);
    await screenshot(page, 'readme-failure-decision');
    await keep('readme-failure-decision', 'web-failure-decision.png');
    await context.close();
  });
});
