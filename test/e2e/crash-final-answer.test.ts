import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const TASKS = ['t1', 't2', 't3'];
const ANSWER = 'All three steps are done.';

/**
 * A chain of three tasks, each appending its id to log.txt (a task run twice shows twice). The
 * final answer is slow: the process is killed while it waits for it. A plan turn is always
 * available, so a resume that plans again would run every task again.
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
      ...TASKS.map((id) => ({
        task: id,
        toolCalls: [
          { name: 'run_command', args: { command: `echo ${id} >> log.txt` } },
          { name: 'task_completed', args: { summary: `${id} appended` } },
        ],
      })),
      {
        when: 'All 3 tasks are done',
        latencyMs: 2_000,
        toolCalls: [{ name: 'final_answer', args: { answer: ANSWER } }],
      },
    ],
  };
}

const LAST_TASK_DONE =
  /"update_type":"task_completed"[^\n]*"task_id":"t3"|"task_id":"t3"[^\n]*"update_type":"task_completed"/;

describe('kill -9 between the last task and the final answer (issue 11, finding 1)', () => {
  // 0 ms: at the last task's event (the plan may not be marked completed yet); 500 ms: while the
  // final answer is awaited. A second resume killed the same way is one more interrupted run.
  it.each([
    { delayMs: 0, kills: 1 },
    { delayMs: 500, kills: 1 },
    { delayMs: 500, kills: 2 },
  ])(
    'resume asks for the final answer only: no new plan, no task run again (killed $delayMs ms after the last task, $kills time(s))',
    async ({ delayMs, kills }) => {
      const workspace = await tempWorkspaceRoot('taskweave-crash-final-');
      const scripts = await tempWorkspaceRoot('taskweave-script-');
      const model = `script:${await writeScript(scripts, script())}`;
      const common = [
        '--approval',
        'auto',
        '--model',
        model,
        '--cwd',
        workspace,
        '--plan',
        'always',
        '--yes',
      ];
      const first = await runCliUntil(['run', ...common, '--json', 'Do the three steps'], {
        when: (out) => LAST_TASK_DONE.test(out),
        delayMs,
      });
      expect(first.signal, first.stdout + first.stderr).toBe('SIGKILL');
      if (kills === 2) {
        const second = await runCliUntil(['resume', ...common, '--json'], {
          when: (out) => out.includes('"plan_resumed"'),
          delayMs: 500,
        });
        expect(second.signal, second.stdout + second.stderr).toBe('SIGKILL');
      }

      const resumed = await runCli(['resume', ...common, '--json']);
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      const events = parseJsonLines(resumed.stdout);
      const updates = events.flatMap((event) => (event.type === 'agent_update' ? [event.update_type] : []));
      expect(updates).not.toContain('plan_proposed');
      expect(updates).not.toContain('task_started');
      expect(events.filter((event) => event.type === 'tool_start')).toEqual([
        expect.objectContaining({ name: 'final_answer' }),
      ]);
      expect(events.at(-1)).toMatchObject({
        type: 'response_complete',
        status: 'completed',
        final_answer: ANSWER,
      });
      expect((await readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(
        TASKS,
      );

      const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
      try {
        const all = new TaskStore(db).listAll();
        expect(
          all.filter((task) => task.planId !== null).map((task) => [task.key, task.status, task.attempts]),
        ).toEqual(TASKS.map((id) => [id, 'completed', 1]));
        expect(all.filter((task) => task.planId === null).map((task) => task.status)).toEqual(['completed']);
      } finally {
        db.close();
      }
      // Nothing is left to resume.
      const again = await runCli(['resume', ...common]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Nothing to resume');
    },
    60_000,
  );
});
