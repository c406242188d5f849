import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { git, workspaceFolder } from '../work/work-fixture.js';

/*
 * Issue 40, item 1: a goal run in worktrees starts from the files as they are on disk and, once
 * completed, lands its change in the user's working tree (uncommitted, three-way against its
 * base); a file both changed holds it all back; --no-apply keeps it on its branch.
 */
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');

/** A repository with shared.txt and draft.txt committed; draft.txt changed and todo.txt added on disk. */
function dirtyRepository(): string {
  const root = workspaceFolder('git');
  folders.push(root);
  writeFileSync(path.join(root, 'shared.txt'), `${LINES}\n`);
  writeFileSync(path.join(root, 'draft.txt'), 'committed draft\n');
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  writeFileSync(path.join(root, 'draft.txt'), 'uncommitted draft\n');
  writeFileSync(path.join(root, 'todo.txt'), 'untracked todo\n');
  return root;
}

const setLine = (line: number, text: string, file = 'shared.txt') => `sed -i '${line}s/.*/${text}/' ${file}`;

function planTurn(ids: string[]) {
  return {
    toolCalls: [
      {
        name: 'plan_actions',
        args: { tasks: ids.map((id) => ({ id, title: `Task ${id}`, description: `do ${id}` })) },
      },
    ],
  };
}

/** A plan of two parallel tasks running `a` and `b` (commands, in their worktrees), then the final answer. */
function twoTasks(a: string, b: string) {
  return {
    latencyMs: 0,
    turns: [
      planTurn(['a', 'b']),
      { task: 'a', toolCalls: [{ name: 'run_command', args: { command: a } }] },
      { task: 'b', toolCalls: [{ name: 'run_command', args: { command: b } }] },
      { task: 'a', toolCalls: [{ name: 'task_completed', args: { summary: 'a done' } }] },
      { task: 'b', toolCalls: [{ name: 'task_completed', args: { summary: 'b done' } }] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'both done' } }] },
    ],
  };
}

async function run(root: string, script: unknown, ...extra: string[]) {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-lands-script-'));
  folders.push(folder);
  const file = await writeScript(folder, script);
  // The sandbox is off so that a task's command can stand for the user editing the checkout meanwhile.
  return runCli([
    'run',
    'two tasks',
    '-y',
    '--json',
    '--approval',
    'auto',
    '--sandbox',
    'off',
    '--model',
    `script:${file}`,
    '-C',
    root,
    ...extra,
  ]);
}

const goalApplied = (events: ServerEvent[]) =>
  events.filter(
    (event) => event.type === 'agent_update' && event.update_type === 'goal_applied',
  ) as (ServerEvent & Record<string, unknown>)[];

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

describe('a completed goal lands in the working tree (issue 40, item 1)', () => {
  it('tasks see the uncommitted files; the change lands uncommitted; the user edit made meanwhile stays', async () => {
    const root = dirtyRepository();
    const head = git(root, 'rev-parse', 'HEAD');
    const index = git(root, 'ls-files', '-s');
    const result = await run(
      root,
      twoTasks(
        `cat draft.txt todo.txt > seen.txt && echo 'draft edited meanwhile' > ${path.join(root, 'draft.txt')}`,
        setLine(11, 'line 11 by b'),
      ),
    );
    expect(result.code, result.stderr + result.stdout.slice(-2000)).toBe(0);
    const [landed] = goalApplied(parseJsonLines(result.stdout));
    expect(landed).toMatchObject({
      outcome: 'applied',
      files: ['seen.txt', 'shared.txt'],
      added: 3,
      removed: 1,
    });
    expect(read(root, 'seen.txt')).toBe('uncommitted draft\nuntracked todo\n');
    expect(read(root, 'shared.txt')).toContain('line 11 by b');
    expect(read(root, 'draft.txt')).toBe('draft edited meanwhile\n');
    expect(read(root, 'todo.txt')).toBe('untracked todo\n');
    // Uncommitted, as a run without a plan leaves it: HEAD and the index as they were.
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(root, 'ls-files', '-s')).toBe(index);
    expect(git(root, 'status', '--porcelain')).toContain('?? seen.txt');
  }, 120_000);

  it('a file the user changed meanwhile holds the change back: the file is listed and nothing is touched', async () => {
    const root = dirtyRepository();
    const result = await run(
      root,
      twoTasks(
        `${setLine(2, 'line 2 by a')} && ${setLine(7, 'line 7 by the user', path.join(root, 'shared.txt'))}`,
        "echo 'by b' > b.txt",
      ),
    );
    expect(result.code, result.stderr + result.stdout.slice(-2000)).toBe(0);
    const [held] = goalApplied(parseJsonLines(result.stdout));
    expect(held).toMatchObject({ outcome: 'held', files: ['shared.txt'] });
    const branch = String(held?.branch);
    const goal = branch.slice('taskweave/'.length);
    expect(existsSync(path.join(root, 'b.txt'))).toBe(false);
    expect(read(root, 'shared.txt')).toContain('line 7 by the user');
    expect(read(root, 'shared.txt')).not.toContain('line 2 by a');
    expect(git(root, 'show', `${branch}:b.txt`)).toBe('by b\n');
    const diff = await runCli(['diff', goal, '-C', root]);
    expect(diff.stdout).toContain('+line 2 by a');
    expect(diff.stdout).not.toContain('uncommitted draft');
  }, 120_000);

  it('--no-apply keeps the change on its branch; --from-head leaves the uncommitted files out', async () => {
    const root = dirtyRepository();
    const result = await run(
      root,
      twoTasks('cat draft.txt > seen.txt', setLine(3, 'three by b')),
      '--no-apply',
      '--from-head',
    );
    expect(result.code, result.stderr + result.stdout.slice(-2000)).toBe(0);
    const [kept] = goalApplied(parseJsonLines(result.stdout));
    expect(kept).toMatchObject({ outcome: 'kept', files: ['seen.txt', 'shared.txt'], reason: '--no-apply' });
    expect(existsSync(path.join(root, 'seen.txt'))).toBe(false);
    expect(read(root, 'shared.txt')).toBe(`${LINES}\n`);
    expect(git(root, 'show', `${kept?.branch}:seen.txt`)).toBe('committed draft\n');
  }, 120_000);

  it('a failed goal lands nothing', async () => {
    const root = dirtyRepository();
    const result = await run(
      root,
      {
        latencyMs: 0,
        turns: [
          planTurn(['a', 'b']),
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
    expect(goalApplied(parseJsonLines(result.stdout))).toHaveLength(0);
    expect(read(root, 'shared.txt')).toBe(`${LINES}\n`);
  }, 120_000);
});
