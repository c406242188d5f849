import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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

const LINES = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n');
const FRESH_TASK = '(no tool calls yet for this task)';

async function gitRepository(workspace: string) {
  await writeFile(path.join(workspace, 'shared.txt'), `${LINES}\n`);
  await writeFile(path.join(workspace, '.gitignore'), '.taskweave/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-qm', 'first');
}

const sed = (line: number, text: string) => ({
  name: 'run_command',
  args: { command: `sed -i '${line}s/.*/${text}/' shared.txt` },
});
const done = (summary: string) => ({ name: 'task_completed', args: { summary } });

describe('a 4-task plan in git worktrees in the web UI (chromium against taskweave serve)', {
  timeout: 120_000,
}, () => {
  it('shows each worktree and merge, a conflict decision (Retry on the new goal branch), and with --no-apply the diff and Apply on the completion card', async () => {
    const server = await startServe({
      args: ['--yes', '--no-apply'],
      files: gitRepository,
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'a', title: 'Edit line 2', description: 'line 2' },
                    { id: 'b', title: 'Edit line 2 too', description: 'line 2, differently' },
                    { id: 'c', title: 'Write c.txt', description: 'c.txt' },
                    {
                      id: 'd',
                      title: 'Write d.txt',
                      description: 'after the others',
                      depends_on: ['a', 'b', 'c'],
                    },
                  ],
                },
              },
            ],
          },
          { task: 'a', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by a')] },
          { task: 'a', toolCalls: [done('a edited line 2')] },
          { task: 'b', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by b')] },
          // b closes later than a: a is merged first, b's merge conflicts.
          { task: 'b', latencyMs: 1500, toolCalls: [done('b edited line 2')] },
          // The retry, from the goal branch with a's work in it.
          { task: 'b', when: FRESH_TASK, toolCalls: [sed(7, 'line 7 by b')] },
          { task: 'b', toolCalls: [done('b edited line 7')] },
          {
            task: 'c',
            when: FRESH_TASK,
            toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }],
          },
          { task: 'c', toolCalls: [done('c written')] },
          {
            task: 'd',
            when: FRESH_TASK,
            toolCalls: [{ name: 'write_file', args: { path: 'd.txt', content: 'd\n' } }],
          },
          { task: 'd', toolCalls: [done('d written')] },
          {
            toolCalls: [
              { name: 'final_answer', args: { answer: 'All four tasks are merged on the goal branch.' } },
            ],
          },
        ],
      },
    });
    servers.push(server);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'edit shared.txt and write c.txt and d.txt');
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.waitFor();
    await expect.poll(() => decision.textContent()).toContain('could not be merged');
    expect(await page.getByText(/merge conflict: .* both changed shared.txt/).count()).toBeGreaterThan(0);
    await screenshot(page, 'worktrees-conflict');
    await decision.getByRole('button', { name: 'Retry' }).click();
    await page.getByLabel('Run result').waitFor({ timeout: 60_000 });
    for (const task of ['a', 'b', 'c', 'd'])
      expect(await page.getByText(`[${task}] merged taskweave/`).count()).toBeGreaterThan(0);
    // Nothing in the checkout yet: the completion card says where the work is, with Show diff and Apply.
    expect(readFileSync(path.join(server.workspace, 'shared.txt'), 'utf8')).toBe(`${LINES}\n`);
    const result = page.getByLabel('Run result');
    expect(await result.getByRole('status').textContent()).toMatch(
      /^on taskweave\/(plan_\w+), not applied: --no-apply \(3 files, \+4 −2\), taskweave apply plan_\w+$/,
    );
    const goal = result.locator('section.goal-diff');
    await goal.getByRole('button', { name: 'Show diff' }).click();
    const diff = goal.getByLabel('Goal diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('+line 2 by a');
    expect(await diff.textContent()).toContain('+line 7 by b');
    await goal.scrollIntoViewIfNeeded();
    await screenshot(page, 'worktrees-diff');
    await screenshot(page, 'work-completion-kept-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-completion-kept-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await goal.getByRole('button', { name: 'Apply' }).click();
    await goal.getByText(/Applied to main/).waitFor();
    await screenshot(page, 'worktrees-applied');
    const text = readFileSync(path.join(server.workspace, 'shared.txt'), 'utf8');
    expect(text).toContain('line 2 by a');
    expect(text).toContain('line 7 by b');
    expect(readFileSync(path.join(server.workspace, 'd.txt'), 'utf8')).toBe('d\n');
  });

  it('resolves a conflict in the task worktree from the decision buttons: the resolved line is merged', async () => {
    const server = await startServe({
      args: ['--yes'],
      files: gitRepository,
      script: {
        turns: [
          {
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'a', title: 'Edit line 2', description: 'line 2' },
                    {
                      id: 'b',
                      title: 'Edit line 2 too',
                      description: 'line 2, differently',
                      check: "grep -q '2 by .*b' shared.txt",
                    },
                  ],
                },
              },
            ],
          },
          { task: 'a', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by a')] },
          { task: 'a', toolCalls: [done('a edited line 2')] },
          { task: 'b', when: FRESH_TASK, toolCalls: [sed(2, 'line 2 by b')] },
          { task: 'b', latencyMs: 1500, when: 'line 2 by b', toolCalls: [done('b edited line 2')] },
          // Resolve: the goal branch is merged into b's worktree, markers in shared.txt.
          {
            task: 'b',
            when: 'Resolve the merge conflict',
            toolCalls: [
              {
                name: 'run_command',
                args: { command: "sed -i -e '/^<<<<<<< /,/^>>>>>>> /c\\line 2 by a and b' shared.txt" },
              },
              done('b resolved the conflict'),
            ],
          },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'Both merged.' } }] },
        ],
      },
    });
    servers.push(server);
    const { page } = await openApp(browser, server);
    await sendGoal(page, 'edit line 2 twice');
    const decision = page.getByRole('alert', { name: 'A task failed' });
    await decision.waitFor();
    await expect.poll(() => decision.textContent()).toContain('resolve lets the model resolve the conflict');
    const resolve = decision.getByRole('button', { name: 'Resolve in its worktree' });
    await resolve.waitFor();
    await screenshot(page, 'worktrees-resolve-choice');
    await resolve.click();
    await page.getByLabel('Run result').waitFor({ timeout: 60_000 });
    expect(
      await page.getByText(/Resolving the conflict in the task's worktree: shared.txt holds/).count(),
    ).toBeGreaterThan(0);
    expect(await page.getByText('[b] merged taskweave/').count()).toBeGreaterThan(0);
    // Landed in the checkout, uncommitted; the completion card says so and keeps Show diff.
    const result = page.getByLabel('Run result');
    expect(await result.getByRole('status').textContent()).toBe('applied: 1 file (+1 −1)');
    expect(readFileSync(path.join(server.workspace, 'shared.txt'), 'utf8')).toContain('line 2 by a and b');
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-completion-applied-1280');
    const goal = result.locator('section.goal-diff');
    // Landed already: Show diff, no Apply.
    expect(await goal.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    await goal.getByRole('button', { name: 'Show diff' }).click();
    const diff = goal.getByLabel('Goal diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('+line 2 by a and b');
    expect(await diff.textContent()).not.toContain('<<<<<<<');
    await screenshot(page, 'worktrees-resolved');
    await page.setViewportSize({ width: 390, height: 844 });
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-completion-applied-390');
  });
});
