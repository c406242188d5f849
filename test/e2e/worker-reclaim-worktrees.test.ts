import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { git, workspaceFolder, worktreesLeft } from '../work/work-fixture.js';

/*
 * A `work` worker is killed (kill -9) while both tasks of a queued goal run in their worktrees;
 * the user then cancels the goal. The next worker started in the repository reclaims the dead
 * worker's worktrees (parked idle for the next goals, clean) instead of leaving them on disk.
 */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function script() {
  const task = (id: string) => [
    { task: id, toolCalls: [{ name: 'run_command', args: { command: `sleep 3; echo ${id} > ${id}.txt` } }] },
    { task: id, toolCalls: [{ name: 'task_completed', args: { summary: `${id} written` } }] },
  ];
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
                { id: 'a', title: 'A', description: 'write a.txt' },
                { id: 'b', title: 'B', description: 'write b.txt' },
              ],
            },
          },
        ],
      },
      ...task('a'),
      ...task('b'),
      { toolCalls: [{ name: 'final_answer', args: { answer: 'both written' } }] },
    ],
  };
}

const COMMANDS_STARTED = (out: string) =>
  (out.match(/"type":"tool_start"[^\n]*"name":"run_command"/g) ?? []).length >= 2;

describe('a worker restarted after kill -9', () => {
  it("reclaims the worktrees of its predecessor's goal that nobody continues", async () => {
    const root = workspaceFolder('git');
    folders.push(root);
    writeFileSync(path.join(root, 'readme.txt'), 'hello\n');
    writeFileSync(path.join(root, '.gitignore'), '.taskweave/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'first');
    const scripts = mkdtempSync(path.join(tmpdir(), 'taskweave-reclaim-script-'));
    folders.push(scripts);
    const model = `script:${await writeScript(scripts, script())}`;
    const added = await runCli(['tasks', 'add', '--cwd', root, 'write a.txt and b.txt']);
    expect(added.code, added.stderr).toBe(0);
    const common = ['--approval', 'auto', '--model', model, '--cwd', root, '--plan', 'always', '--yes'];

    const killed = await runCliUntil(['work', ...common, '--json'], {
      when: COMMANDS_STARTED,
      timeoutMs: 90_000,
    });
    expect(killed.signal, killed.stdout.slice(-2000) + killed.stderr).toBe('SIGKILL');
    const left = worktreesLeft(root);
    expect(left).toHaveLength(2);

    const goalId = /(task_[a-z0-9]+)/.exec(added.stdout)?.[1];
    expect(goalId, added.stdout).toBeDefined();
    const cancelled = await runCli(['tasks', 'cancel', '--cwd', root, goalId!]);
    expect(cancelled.code, cancelled.stderr).toBe(0);

    // The next worker finds the queue empty, and the dead worker's worktrees reclaimed.
    const next = await runCli(['work', ...common]);
    expect(next.code, next.stderr + next.stdout).toBe(0);
    expect(next.stdout + next.stderr).toMatch(/reclaimed 2 worktrees of goals a stopped worker left/);
    expect(worktreesLeft(root)).toEqual([]);
    // Kept idle (clean, detached) for the repository's next goals; the tasks' branches stay.
    const idle = git(root, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree ') && line.includes('/.idle/'));
    expect(idle).toHaveLength(2);
    const branches = git(root, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/taskweave');
    expect(branches.split('\n').filter((name) => /\.(a|b)$/.test(name))).toHaveLength(2);
  }, 180_000);
});
