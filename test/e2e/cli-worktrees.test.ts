import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { git, userGitState, workspaceFolder, worktreesLeft } from '../work/work-fixture.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');

function repository(): string {
  const root = workspaceFolder('git');
  folders.push(root);
  writeFileSync(path.join(root, 'shared.txt'), `${LINES}\n`);
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\nnode_modules/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  return root;
}

function scriptFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-worktrees-script-'));
  folders.push(folder);
  return folder;
}

/** The user's own state: taskweave's branches (which it adds) left out. */
function userState(root: string): string {
  return userGitState(root)
    .split('\n')
    .filter((line) => !line.startsWith('refs/heads/taskweave/'))
    .join('\n');
}

/** A command replacing line `line` of shared.txt in the task's checkout. */
const setLine = (line: number, text: string) => `sed -i '${line}s/.*/${text}/' shared.txt`;

function plan(tasks: { id: string; check?: string }[]) {
  return {
    toolCalls: [
      {
        name: 'plan_actions',
        args: {
          tasks: tasks.map((task) => ({
            id: task.id,
            title: `Task ${task.id}`,
            description: `do ${task.id}`,
            check: task.check,
          })),
        },
      },
    ],
  };
}

const updates = (events: ServerEvent[], kind: string) =>
  events.filter((event) => event.type === 'agent_update' && event.update_type === kind) as (ServerEvent &
    Record<string, unknown>)[];

async function run(root: string, script: unknown, ...extra: string[]) {
  const file = await writeScript(scriptFolder(), script);
  return runCli([
    'run',
    'edit shared.txt',
    '-y',
    '--json',
    '--approval',
    'auto',
    '--model',
    `script:${file}`,
    '-C',
    root,
    ...extra,
  ]);
}

describe('plan tasks in git worktrees', () => {
  it('two parallel tasks edit different lines of one file: each in its worktree, both merged, with --no-apply the checkout untouched until apply', async () => {
    const root = repository();
    const before = userState(root);
    const result = await run(
      root,
      {
        latencyMs: 0,
        turns: [
          plan([
            { id: 'a', check: "grep -q 'by a' shared.txt" },
            { id: 'b', check: "grep -q 'by b' shared.txt" },
          ]),
          { task: 'a', toolCalls: [{ name: 'run_command', args: { command: setLine(2, 'line 2 by a') } }] },
          { task: 'b', toolCalls: [{ name: 'run_command', args: { command: setLine(11, 'line 11 by b') } }] },
          { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
          { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'both done' } }] },
        ],
      },
      '--no-apply',
    );
    expect(result.code, result.stderr + result.stdout.slice(-3000)).toBe(0);
    const events = parseJsonLines(result.stdout);
    const [goal] = updates(events, 'goal_branch');
    expect(goal?.reason).toContain('isolation auto: tasks of the plan can run at the same time');
    const created = updates(events, 'worktree_created');
    expect(created.map((event) => event.branch).sort()).toEqual([`${goal?.branch}.a`, `${goal?.branch}.b`]);
    for (const event of created)
      expect(String(event.path)).toContain(`${path.sep}.git${path.sep}taskweave${path.sep}worktrees`);
    expect(
      updates(events, 'task_merged')
        .map((event) => event.task_id)
        .sort(),
    ).toEqual(['a', 'b']);
    // Commands ran in each task's worktree: the user's checkout is as it was.
    expect(userState(root)).toBe(before);
    expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toBe(`${LINES}\n`);
    // The worktrees went at the goal's end.
    expect(worktreesLeft(root)).toEqual([]);
    const diff = await runCli(['diff', '-C', root]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('shared.txt | 4 ++--');
    expect(diff.stdout).toContain('+line 2 by a');
    expect(diff.stdout).toContain('+line 11 by b');
    const apply = await runCli(['apply', '-C', root]);
    expect(apply.code, apply.stderr).toBe(0);
    const text = readFileSync(path.join(root, 'shared.txt'), 'utf8');
    expect(text).toContain('line 2 by a');
    expect(text).toContain('line 11 by b');
  }, 120_000);

  it('the same line in two tasks: a merge conflict with both sides, the second task not merged', async () => {
    const root = repository();
    const result = await run(
      root,
      {
        latencyMs: 0,
        turns: [
          plan([{ id: 'a' }, { id: 'b' }]),
          { task: 'a', toolCalls: [{ name: 'run_command', args: { command: setLine(5, 'five by a') } }] },
          { task: 'b', toolCalls: [{ name: 'run_command', args: { command: setLine(5, 'five by b') } }] },
          { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
          { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
        ],
      },
      '--on-failure',
      'abort',
    );
    expect(result.code, result.stderr).toBe(1);
    const events = parseJsonLines(result.stdout);
    const merged = updates(events, 'task_merged').map((event) => event.task_id);
    const [conflict] = updates(events, 'merge_conflict');
    expect(merged).toHaveLength(1);
    const loser = merged[0] === 'a' ? 'b' : 'a';
    expect(conflict?.task_id).toBe(loser);
    const files = conflict?.files as { path: string; goal: string; task: string }[];
    expect(files.map((file) => file.path)).toEqual(['shared.txt']);
    expect(files[0]?.goal).toContain(`+five by ${merged[0]}`);
    expect(files[0]?.task).toContain(`+five by ${loser}`);
    const failed = updates(events, 'task_failed').find((event) => event.task_id === loser);
    expect(String(failed?.reason)).toContain('could not be merged');
    const goal = String(updates(events, 'goal_branch')[0]?.branch);
    const onGoal = git(root, 'show', `${goal}:shared.txt`);
    expect(onGoal).toContain(`five by ${merged[0]}`);
    expect(onGoal).not.toContain(`five by ${loser}`);
  }, 120_000);

  it('a task whose check fails is never merged; --isolation shared keeps one checkout', async () => {
    const root = repository();
    const result = await run(
      root,
      {
        latencyMs: 0,
        turns: [
          plan([{ id: 'a', check: 'false' }, { id: 'b' }]),
          { task: 'a', toolCalls: [{ name: 'run_command', args: { command: setLine(1, 'one by a') } }] },
          { task: 'b', toolCalls: [{ name: 'run_command', args: { command: setLine(9, 'nine by b') } }] },
          { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
          { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
          { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the check keeps failing' } }] },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'b done, a skipped' } }] },
        ],
      },
      '--on-failure',
      'skip',
    );
    expect(result.code, result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    expect(updates(events, 'task_merged').map((event) => event.task_id)).toEqual(['b']);
    const goal = String(updates(events, 'goal_branch')[0]?.branch);
    expect(git(root, 'show', `${goal}:shared.txt`)).not.toContain('one by a');
    // The failed task's branch keeps its work for the user to look at.
    expect(git(root, 'show', `${goal}.a:shared.txt`)).toContain('one by a');

    const shared = await run(
      root,
      {
        latencyMs: 0,
        turns: [
          plan([{ id: 'c' }, { id: 'd' }]),
          { task: 'c', toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c\n' } }] },
          { task: 'd', toolCalls: [{ name: 'write_file', args: { path: 'd.txt', content: 'd\n' } }] },
          { task: 'c', toolCalls: [{ name: 'task_completed', args: { summary: 'c' } }] },
          { task: 'd', toolCalls: [{ name: 'task_completed', args: { summary: 'd' } }] },
          { toolCalls: [{ name: 'final_answer', args: { answer: 'done' } }] },
        ],
      },
      '--isolation',
      'shared',
    );
    expect(shared.code, shared.stderr).toBe(0);
    expect(updates(parseJsonLines(shared.stdout), 'goal_branch')).toHaveLength(0);
    expect(existsSync(path.join(root, 'c.txt'))).toBe(true);
  }, 120_000);
});
