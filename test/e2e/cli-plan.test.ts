import { access } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from '../helpers/cli.js';
import { eventKinds, tempWorkspaceRoot } from '../helpers/run-harness.js';

const GOAL =
  'Create a TypeScript project called webapp, write src/index.ts with a main function, write public/index.html';
const EXAMPLE = path.resolve('examples/webapp.json');

// Each test runs several CLI processes one after another: on a loaded 2-core machine (load 20+)
// that takes more than the default 30 s; a wait here is for the processes to end, not for a time.
describe('taskweave run in complex mode (CLI, the webapp example)', { timeout: 120_000 }, () => {
  it('plans, refuses the early final answer, completes every task (--yes --json, exit 0)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-webapp-');
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      `script:${EXAMPLE}`,
      '--cwd',
      workspace,
      '--yes',
      '--json',
      GOAL,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    const kinds = eventKinds(events);
    expect(kinds).toContain('final_answer_refused');
    expect(kinds.filter((kind) => kind === 'task_completed')).toHaveLength(3);
    expect(kinds.indexOf('plan_approved')).toBeLessThan(kinds.indexOf('task_started'));
    for (const file of ['webapp/package.json', 'webapp/src/index.ts', 'webapp/public/index.html']) {
      await access(path.join(workspace, file));
    }
    const taskEvents = events.filter((event) => event.type === 'tool_start' && event.name === 'write_file');
    expect(taskEvents.every((event) => 'task_id' in event && typeof event.task_id === 'string')).toBe(true);
  });

  it('shows the plan in layers and the final task list to people', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-webapp-');
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      `script:${EXAMPLE}`,
      '--cwd',
      workspace,
      '--yes',
      GOAL,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Step 2 (2 in parallel)');
    expect(run.stdout).toMatch(/! final answer refused: 2 tasks remain; the run goes on/);
    expect(run.stdout).toMatch(/Tasks:\n {2}✓ \[project\].*\n {2}✓ \[index\].*\n {2}✓ \[html\]/);
  });

  it('without --yes and without a terminal, ends after plan_proposed with exit 4 and changes nothing', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-webapp-');
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      `script:${EXAMPLE}`,
      '--cwd',
      workspace,
      '--json',
      GOAL,
    ]);
    expect(run.code).toBe(4);
    const kinds = eventKinds(parseJsonLines(run.stdout));
    expect(kinds).toContain('plan_proposed');
    expect(kinds).not.toContain('task_started');
    await expect(access(path.join(workspace, 'webapp'))).rejects.toThrow();
  });

  it('rejects unknown option values with exit 2', async () => {
    const run = await runCli(['run', '--approval', 'auto', '--plan', 'sometimes', 'go']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('sometimes');
  });
});
