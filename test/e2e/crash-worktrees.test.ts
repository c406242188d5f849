import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { CLI_PATH, parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { git, workspaceFolder, worktreesLeft } from '../work/work-fixture.js';

/*
 * kill -9 in each window of a plan run in worktrees: creating a task's worktree, switching a
 * merged task's worktree to the next task, committing a step, merging a task, removing the
 * worktrees at the end. A `git` ahead of the real one on PATH (a real
 * program, not a mock of taskweave) runs the real git for the matching call, then marks a file
 * and waits: the test kills taskweave's whole process group right after git did its part and
 * before taskweave recorded it. `resume` must then finish the plan with each task merged once,
 * no worktree left, nothing locked.
 */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');
const FRESH_TASK = '(no tool calls yet for this task)';
const UNKNOWN_EFFECT = 'effect is unknown';

function temp(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

function repository(): string {
  const root = workspaceFolder('git');
  folders.push(root);
  writeFileSync(path.join(root, 'shared.txt'), `${LINES}\n`);
  writeFileSync(path.join(root, '.gitignore'), '.taskweave/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  return root;
}

/** A folder with a `git` that stops after the first call whose arguments contain `match`. */
function crashingGit(match: string, mark: string): string {
  const folder = temp('taskweave-crash-git-');
  const script = `#!/bin/sh
case " $* " in
  *"${match}"*)
    if [ ! -e "${mark}" ]; then
      /usr/bin/git "$@"; code=$?
      : > "${mark}"
      sleep 60
      exit $code
    fi ;;
esac
exec /usr/bin/git "$@"
`;
  writeFileSync(path.join(folder, 'git'), script);
  chmodSync(path.join(folder, 'git'), 0o755);
  return folder;
}

/**
 * `slow`: a task whose command sleeps first, so that it is still running when the other task's
 * step is committed (and the process killed).
 */
function script(slow?: string) {
  const task = (id: string, line: number) => {
    const edit = `sed -i '${line}s/.*/line ${line} by ${id}/' shared.txt`;
    return [
      {
        task: id,
        when: FRESH_TASK,
        toolCalls: [{ name: 'run_command', args: { command: id === slow ? `sleep 3; ${edit}` : edit } }],
      },
      // A call the kill cut short is of unknown effect after resume (it is not run again
      // blind): the model looks, and makes the edit when it is not there.
      {
        task: id,
        when: UNKNOWN_EFFECT,
        toolCalls: [{ name: 'run_command', args: { command: `grep -q 'by ${id}' shared.txt || ${edit}` } }],
      },
      { task: id, toolCalls: [{ name: 'task_completed', args: { summary: `${id} done` } }] },
    ];
  };
  return {
    latencyMs: 0,
    turns: [
      {
        phase: 'plan',
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: [
                { id: 'a', title: 'A', description: 'line 2', check: "grep -q 'by a' shared.txt" },
                { id: 'b', title: 'B', description: 'line 11', check: "grep -q 'by b' shared.txt" },
                // After a: it gets a's worktree, switched to its own branch (the pool).
                {
                  id: 'c',
                  title: 'C',
                  description: 'line 6',
                  depends_on: ['a'],
                  check: "grep -q 'by a' shared.txt && grep -q 'by c' shared.txt",
                },
              ],
            },
          },
        ],
      },
      ...task('a', 2),
      ...task('b', 11),
      ...task('c', 6),
      { toolCalls: [{ name: 'final_answer', args: { answer: 'both done' } }] },
    ],
  };
}

const kinds = (events: ServerEvent[], kind: string) =>
  events.filter((event) => event.type === 'agent_update' && event.update_type === kind) as (ServerEvent &
    Record<string, unknown>)[];

/** Every `*.lock` under a folder. */
function locks(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter(
    (entry) => entry.endsWith('.lock') || path.basename(entry) === 'locked',
  );
}

const WINDOWS: { name: string; match: string; slow?: string }[] = [
  { name: 'creating a worktree (registered, its files not checked out)', match: 'worktree add' },
  { name: 'creating a worktree (its files checked out)', match: 'checkout --force --quiet' },
  // A step's commit is made with commit-tree (the first of the run), then moves the task's
  // branch with `update-ref -m "commit: <message>"`.
  { name: "committing a step (its commit made, the task's branch not moved yet)", match: 'commit-tree' },
  { name: 'committing a step', match: '-m commit: taskweave:' },
  {
    name: "committing a step while the other task's command runs",
    match: '-m commit: taskweave:',
    slow: 'a',
  },
  // The merge's commit-tree, by its message: a step's commit is made with commit-tree too.
  {
    name: 'merging a task (its merge commit made, the goal branch not moved yet)',
    match: '-m taskweave: merge task',
  },
  {
    name: 'merging a task (the goal branch moved, the task not yet recorded)',
    match: 'update-ref -m taskweave: merge',
  },
  {
    name: 'switching a worktree to the next task (its files checked out, not cleaned)',
    match: 'checkout --quiet --force',
  },
  { name: 'switching a worktree to the next task (cleaned, not recorded)', match: 'clean --quiet --force' },
  // The end of the goal: its worktrees go idle for the repository's next goal (moved to `.idle`).
  { name: 'parking the worktrees at the end of the goal', match: 'worktree move' },
];

describe('kill -9 while a plan runs in worktrees, then resume', () => {
  for (const window of WINDOWS) {
    it(`${window.name}: resume finishes, each task merged once, nothing left locked`, async () => {
      const root = repository();
      const mark = path.join(temp('taskweave-crash-mark-'), 'reached');
      const model = `script:${await writeScript(temp('taskweave-crash-script-'), script(window.slow))}`;
      const args = ['--approval', 'auto', '--model', model, '--cwd', root, '--yes', '--json'];
      const first = spawn(
        process.execPath,
        [CLI_PATH, 'run', ...args, '--plan', 'always', 'edit shared.txt'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
          env: {
            ...process.env,
            NO_COLOR: '1',
            PATH: `${crashingGit(window.match, mark)}:${process.env.PATH}`,
          },
        },
      );
      let out = '';
      first.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const closed = new Promise<NodeJS.Signals | null>((resolve) =>
        first.on('close', (_code, signal) => resolve(signal)),
      );
      const poll = setInterval(() => {
        if (existsSync(mark) && first.pid !== undefined) process.kill(-first.pid, 'SIGKILL');
      }, 5);
      const signal = await closed;
      clearInterval(poll);
      expect(signal, out.slice(-2000)).toBe('SIGKILL');

      const resumed = await runCli(['resume', ...args]);
      expect(resumed.code, resumed.stderr + resumed.stdout.slice(-3000)).toBe(0);
      const resumedEvents = parseJsonLines(resumed.stdout);
      if (window.match.startsWith('update-ref')) {
        // Killed after the merge moved the goal branch, before the task was recorded completed:
        // resume finds its commits there and does not merge them again.
        expect(kinds(resumedEvents, 'task_merged').filter((event) => event.already === true)).toHaveLength(1);
      }
      // The resumed run names the goal branch again (the first process may have been killed
      // before it did: while a worktree was made ahead of the plan's approval).
      const goal = String(kinds(resumedEvents, 'goal_branch')[0]?.branch);
      expect(goal).toMatch(/^taskweave\//);
      const onGoal = git(root, 'show', `${goal}:shared.txt`);
      expect(onGoal).toContain('line 2 by a');
      expect(onGoal).toContain('line 11 by b');
      expect(onGoal).toContain('line 6 by c');
      // Each task merged exactly once: three merge commits on the goal branch.
      expect(git(root, 'rev-list', '--merges', '--count', goal).trim()).toBe('3');
      expect(worktreesLeft(root)).toEqual([]);
      expect(locks(path.join(root, '.git'))).toEqual([]);
      // The goal finished by resume lands in the checkout, uncommitted: the goal's file, nothing else.
      expect(kinds(resumedEvents, 'goal_applied')[0]?.outcome).toBe('applied');
      expect(readFileSync(path.join(root, 'shared.txt'), 'utf8')).toBe(onGoal);
      expect(git(root, 'status', '--porcelain')).toBe(' M shared.txt\n');
    }, 120_000);
  }
});
