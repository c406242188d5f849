import type { Browser, Locator, Page } from 'playwright-core';
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

/** How many times a text shows in a part of the page, as rendered (a closed tool call's body is not). */
async function occurrences(scope: Locator, text: string): Promise<number> {
  const all = await scope.innerText();
  return all.split(text).length - 1;
}

function chat(page: Page): Locator {
  return page.getByRole('region', { name: 'Session' });
}

describe('the web UI says each thing once (chromium against taskweave serve)', { timeout: 90_000 }, () => {
  it('shows the final answer once, in the result', async () => {
    const server = await serve({
      script: {
        turns: [
          { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
          { text: 'Wrote **a.txt** with one line.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'write a.txt');
    const result = page.getByRole('region', { name: 'Run result' });
    await result.waitFor();
    expect(await result.textContent()).toContain('Wrote a.txt with one line.');
    expect(await occurrences(chat(page), 'Wrote a.txt with one line.')).toBe(1);
    await context.close();
  });

  it('shows a question once while it waits and once answered', async () => {
    const server = await serve({
      script: {
        turns: [
          { toolCalls: [{ name: 'request_input', args: { question: 'Which port should it use?' } }] },
          { when: '8080', text: 'It uses port 8080.' },
        ],
      },
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'set up the server');
    const banner = page.getByRole('alert', { name: 'The agent asks' });
    await banner.waitFor();
    expect(await occurrences(chat(page), 'Which port should it use?')).toBe(1);
    await screenshot(page, 'question-once');
    await page.keyboard.type('8080');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Run result' }).waitFor();
    expect(await occurrences(chat(page), 'Which port should it use?')).toBe(1);
    expect(await page.getByText('Your answer: 8080').count()).toBe(1);
    await context.close();
  });

  it('shows a failed task’s reason once in the conversation and once in the decision', async () => {
    const server = await serve({
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'port', title: 'Free the port', description: 'Free it.', depends_on: [] },
                    {
                      id: 'serve',
                      title: 'Start the server',
                      description: 'Start it.',
                      depends_on: ['port'],
                    },
                  ],
                },
              },
            ],
          },
          { task: 'port', toolCalls: [{ name: 'fail_task', args: { reason: 'port 8080 is taken' } }] },
        ],
      },
      args: ['--yes'],
    });
    const { page, context } = await openApp(browser, server);
    await sendGoal(page, 'start the server on 8080');
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.getByText('port 8080 is taken').waitFor();
    expect(await occurrences(decision, 'port 8080 is taken')).toBe(1);
    expect(await occurrences(page.locator('.timeline'), 'port 8080 is taken')).toBe(1);
    await screenshot(page, 'failure-once');
    await decision.getByRole('button', { name: 'Abort' }).click();
    const result = page.getByRole('region', { name: 'Run result' });
    await result.waitFor();
    // Then the task line, and the run's result, which says why the run ended.
    expect(await occurrences(page.locator('.timeline'), 'port 8080 is taken')).toBe(2);
    expect(await occurrences(result, 'port 8080 is taken')).toBe(1);
    expect(await page.locator('.failure-item').count()).toBe(0);
    await context.close();
  });

  it('after the server is killed and started again: the run goes on under its own goal, no step waits forever', async () => {
    const script = {
      turns: [
        // Only the continued run's prompt carries taskweave's continuation message.
        { when: 'previous run was interrupted', text: 'Picked the long job up again.' },
        {
          text: 'Running the long job.',
          toolCalls: [{ name: 'run_command', args: { command: 'sleep 60' } }],
        },
      ],
    };
    const first = await serve({ script });
    const { page, context } = await openApp(browser, first);
    await sendGoal(page, 'run the long job');
    await page.locator('.tool-running summary', { hasText: 'sleep 60' }).waitFor();
    const sessionHash = new URL(page.url()).hash;
    await context.close();
    first.child.kill('SIGKILL');
    await first.stop();

    const second = await serve({ script, workspace: first.workspace });
    const reopened = await openApp(browser, second);
    await reopened.page.evaluate(`window.location.hash = ${JSON.stringify(sessionHash)}`);
    const result = reopened.page.getByRole('region', { name: 'Run result' });
    await result.filter({ hasText: 'Picked the long job up again.' }).waitFor({ timeout: 30_000 });
    const view = chat(reopened.page);
    expect(await view.textContent()).not.toContain('[taskweave]');
    expect(await reopened.page.locator('.session-header h1').textContent()).toBe('run the long job');
    expect(await reopened.page.locator('.goal').allTextContents()).toEqual(['run the long job']);
    expect(await view.getByText('Thinking…').count()).toBe(0);
    expect(await reopened.page.getByRole('article', { name: /^Step 0\b/ }).count()).toBe(0);
    expect(second.output()).not.toContain('[taskweave]');
    await screenshot(reopened.page, 'restart-continued');
    await reopened.context.close();
  });
});
