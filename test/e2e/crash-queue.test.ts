import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { killDuringAtomicWrite, runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const TASKS = ['t1', 't2', 't3', 't4'];

/**
 * A chain of four tasks, each appending its id to log.txt (a task run twice shows twice); task
 * t3's closing turn is slow: the worker is killed while it waits for it.
 */
function script() {
  return {
    turns: [
      {
        phase: 'plan',
        toolCalls: [
          {
            name: 'plan_actions',
            args: {
              tasks: TASKS.map((id, index) => ({
                id,
                title: `Step ${id}`,
                description: `Append ${id} to log.txt`,
                depends_on: index === 0 ? [] : [TASKS[index - 1]],
              })),
            },
          },
        ],
      },
      ...TASKS.flatMap((id) => [
        {
          task: id,
          when: '(no tool calls yet for this task)',
          toolCalls: [{ name: 'run_command', args: { command: `echo ${id} >> log.txt` } }],
        },
        {
          task: id,
          latencyMs: id === 't3' ? 3_000 : 0,
          toolCalls: [{ name: 'task_completed', args: { summary: `${id} appended` } }],
        },
      ]),
      {
        when: 'All 4 tasks are done',
        toolCalls: [{ name: 'final_answer', args: { answer: 'Four steps done.' } }],
      },
    ],
  };
}

const T3_RAN = /"type":"tool_complete"[^\n]*"name":"run_command"[^\n]*"task_id":"t3"/;

async function queuedGoal() {
  const workspace = await tempWorkspaceRoot('taskweave-crash-queue-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  const model = `script:${await writeScript(scripts, script())}`;
  const added = await runCli(['tasks', 'add', '--cwd', workspace, 'Do the four steps']);
  expect(added.code, added.stderr).toBe(0);
  const common = ['--approval', 'auto', '--model', model, '--cwd', workspace, '--plan', 'always', '--yes'];
  const killed = await runCliUntil(['work', ...common, '--json'], { when: (out) => T3_RAN.test(out) });
  expect(killed.signal, killed.stdout + killed.stderr).toBe('SIGKILL');
  return { workspace, common };
}

function readStore(workspace: string) {
  const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
  try {
    const tasks = new TaskStore(db).listAll();
    const sessions = new SessionStore(db).listSessions();
    return { tasks, sessions };
  } finally {
    db.close();
  }
}

async function logLines(workspace: string) {
  return (await readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean);
}

describe('a queued goal whose worker is killed mid-plan (issue 11, finding 2)', () => {
  it('the next work continues the same session and runs no completed task again', async () => {
    const { workspace, common } = await queuedGoal();
    const left = await killDuringAtomicWrite(workspace, 'notes.txt');
    const work = await runCli(['work', ...common]);
    expect(work.code, work.stdout + work.stderr).toBe(0);
    expect(work.stdout).toContain('queue: 1 completed, 0 failed');
    expect(await logLines(workspace)).toEqual(TASKS);
    // The worker taking the task over removed what the killed writer left.
    expect(work.stdout + work.stderr).toContain(left);
    expect((await readdir(workspace)).filter((file) => file.endsWith('.taskweave-tmp'))).toEqual([]);
    const { tasks, sessions } = readStore(workspace);
    expect(sessions).toHaveLength(1);
    const goal = tasks.filter((task) => task.planId === null);
    expect(goal.map((task) => [task.status, task.sessionId])).toEqual([['completed', sessions[0]?.id]]);
    expect(tasks.filter((task) => task.planId !== null).map((task) => task.status)).toEqual(
      TASKS.map(() => 'completed'),
    );
  }, 60_000);

  it('after resume finished the plan, work finds nothing left to run', async () => {
    const { workspace, common } = await queuedGoal();
    const resumed = await runCli(['resume', ...common]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(await logLines(workspace)).toEqual(TASKS);
    expect(
      readStore(workspace)
        .tasks.filter((task) => task.planId === null)
        .map((task) => task.status),
    ).toEqual(['completed']);
    const work = await runCli(['work', ...common]);
    expect(work.code, work.stdout + work.stderr).toBe(0);
    expect(work.stdout).toContain('The queue is empty');
    expect(await logLines(workspace)).toEqual(TASKS);
  }, 60_000);
});
