import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

function plan(prefix: string) {
  return {
    name: 'plan_actions',
    args: {
      tasks: [1, 2].map((n) => ({
        id: `${prefix}${n}`,
        title: `Step ${prefix}${n}`,
        description: `Append ${prefix}${n} to log.txt`,
        depends_on: n === 1 ? [] : [`${prefix}1`],
      })),
    },
  };
}

/** One reply with two plan_actions calls (plans a and b); every task appends its id to log.txt. */
function script() {
  return {
    turns: [
      { phase: 'plan', toolCalls: [plan('a'), plan('b')] },
      ...['a1', 'a2', 'b1', 'b2'].map((id) => ({
        task: id,
        latencyMs: id === 'a2' ? 2_000 : 0,
        toolCalls: [
          { name: 'run_command', args: { command: `echo ${id} >> log.txt` } },
          { name: 'task_completed', args: { summary: `${id} appended` } },
        ],
      })),
      { when: 'tasks are done', toolCalls: [{ name: 'final_answer', args: { answer: 'Done.' } }] },
    ],
  };
}

describe('a reply with two plan_actions calls (issue 11, finding 6)', () => {
  it('the second is refused with a message the model can act on; no plan is left for resume', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-two-plans-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, script())}`;
    const common = ['--approval', 'auto', '--model', model, '--cwd', workspace, '--plan', 'always', '--yes'];
    // Killed while plan a's second task waits for the model.
    const first = await runCliUntil(['run', ...common, '--json', 'Do it'], {
      when: (out) => /"task_started"[^\n]*"task_id":"a2"|"task_id":"a2"[^\n]*"task_started"/.test(out),
      delayMs: 300,
    });
    expect(first.signal, first.stdout + first.stderr).toBe('SIGKILL');
    const events = parseJsonLines(first.stdout.slice(0, first.stdout.lastIndexOf('\n') + 1));
    expect(
      events.filter((event) => event.type === 'agent_update' && event.update_type === 'plan_proposed'),
    ).toHaveLength(1);
    const refused = events.find((event) => event.type === 'tool_error' && event.name === 'plan_actions');
    expect(refused).toMatchObject({ error: expect.stringContaining('only one plan_actions call per reply') });

    const resumed = await runCli(['resume', ...common, '--json']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect((await readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual([
      'a1',
      'a2',
    ]);
    const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
    try {
      const planTasks = new TaskStore(db).listAll().filter((task) => task.planId !== null);
      expect(planTasks.map((task) => [task.key, task.status])).toEqual([
        ['a1', 'completed'],
        ['a2', 'completed'],
      ]);
    } finally {
      db.close();
    }
    const again = await runCli(['resume', ...common]);
    expect(again.stdout).toContain('Nothing to resume');
  }, 60_000);
});
