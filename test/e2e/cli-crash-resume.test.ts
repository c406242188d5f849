import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { CLI_PATH, parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { eventKinds, tempWorkspaceRoot } from '../helpers/run-harness.js';

const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6'];
const FRESH_TASK = '(no tool calls yet for this task)';

/**
 * A chain of 6 tasks. Each task appends its id to log.txt (so a task done twice shows twice) and
 * writes out/<id>.txt, then closes itself in a second turn. Task 3's closing turn is slow: the
 * process is killed while it waits for it.
 */
function crashScript() {
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
                description: `Append ${id} to log.txt and write out/${id}.txt`,
                depends_on: index === 0 ? [] : [TASKS[index - 1]],
              })),
            },
          },
        ],
      },
      ...TASKS.flatMap((id) => [
        {
          task: id,
          when: FRESH_TASK,
          toolCalls: [
            { name: 'run_command', args: { command: `echo ${id} >> log.txt` } },
            { name: 'write_file', args: { path: `out/${id}.txt`, content: `${id} done\n` } },
          ],
        },
        {
          task: id,
          latencyMs: id === 't3' ? 3_000 : 0,
          toolCalls: [{ name: 'task_completed', args: { summary: `${id} written` } }],
        },
      ]),
      { toolCalls: [{ name: 'final_answer', args: { answer: 'All six steps are done.' } }] },
    ],
  };
}

describe('crash safety (kill -9 in the middle of a plan, then taskweave resume)', () => {
  it('completes every task exactly once, continuing the interrupted task with what it had done', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, crashScript())}`;
    const goal = 'Do the six steps';

    // First process: killed with SIGKILL once task 3 has done its work and waits for the model.
    const first = spawn(
      process.execPath,
      [
        CLI_PATH,
        'run',
        '--approval',
        'auto',
        '--model',
        model,
        '--cwd',
        workspace,
        '--plan',
        'always',
        '--yes',
        '--json',
        goal,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let firstOut = '';
    const killed = new Promise<NodeJS.Signals | null>((resolve) =>
      first.on('close', (_code, signal) => resolve(signal)),
    );
    first.stdout.on('data', (chunk: Buffer) => {
      firstOut += chunk.toString();
      if (/"type":"tool_complete","call_id":"[^"]*","name":"write_file"[^\n]*"task_id":"t3"/.test(firstOut)) {
        first.kill('SIGKILL');
      }
    });
    expect(await killed).toBe('SIGKILL');
    const beforeKill = eventKinds(parseJsonLines(firstOut.slice(0, firstOut.lastIndexOf('\n') + 1)));
    expect(beforeKill.filter((kind) => kind === 'task_completed')).toHaveLength(2);

    // Second process: resume.
    const resumed = await runCli([
      'resume',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--yes',
      '--json',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = parseJsonLines(resumed.stdout);
    const completedNow = events.flatMap((event) =>
      event.type === 'agent_update' && event.update_type === 'task_completed' ? [event.task_id] : [],
    );
    expect(completedNow).toEqual(['t3', 't4', 't5', 't6']);
    expect(
      events.find((event) => event.type === 'agent_update' && event.update_type === 'plan_resumed'),
    ).toMatchObject({
      completed: ['t1', 't2'],
    });
    expect(
      events
        .filter((event) => event.type === 'tool_start' && event.task_id === 't3')
        .map((event) => 'name' in event && event.name),
    ).toEqual(['task_completed']);

    expect((await readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(
      TASKS,
    );
    for (const id of TASKS)
      expect(await readFile(path.join(workspace, `out/${id}.txt`), 'utf8')).toBe(`${id} done\n`);

    const db = openDatabase({ path: path.join(workspace, '.taskweave/taskweave.db') });
    try {
      const all = new TaskStore(db).listAll();
      const planTasks = all.filter((task) => task.planId !== null);
      expect(planTasks.map((task) => [task.key, task.status, task.attempts])).toEqual(
        TASKS.map((id) => [id, 'completed', 1]),
      );
      // The goal's own queue task, left in progress by the killed process, ends with the resumed run.
      expect(all.filter((task) => task.planId === null).map((task) => task.status)).toEqual(['completed']);
      const sessions = new SessionStore(db);
      const session = sessions.lastSession()!;
      const logged = sessions.events(session.id);
      const completedEver = logged.flatMap((event) =>
        event.type === 'agent_update' && event.update_type === 'task_completed' ? [event.task_id] : [],
      );
      expect(completedEver).toEqual(TASKS);
      expect(sessions.runs(session.id).map((run) => run.status)).toEqual(['stopped', 'completed']);
    } finally {
      db.close();
    }
  }, 90_000);

  it('says so when there is nothing to resume', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, { turns: [{ text: 'unused' }] })}`;
    const run = await runCli(['resume', '--approval', 'auto', '--model', model, '--cwd', workspace]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing to resume');
  });

  it('resumes a simple run killed during a command: the call gets a result and the run finishes', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        // The resumed run's prompt also contains "tidy up": its turns come first.
        {
          when: 'was interrupted',
          toolCalls: [{ name: 'write_file', args: { path: 'done.txt', content: 'ok' } }],
        },
        { when: 'Created done.txt', text: 'Finished after the interruption.' },
        { when: 'tidy up', toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
      ],
    })}`;
    const first = spawn(
      process.execPath,
      [CLI_PATH, 'run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'tidy up'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    first.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"tool_start"')) first.kill('SIGKILL');
    });
    await new Promise((resolve) => first.on('close', resolve));

    const resumed = await runCli(['resume', '--approval', 'auto', '--model', model, '--cwd', workspace]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Finished after the interruption.');
    expect(await readFile(path.join(workspace, 'done.txt'), 'utf8')).toBe('ok');
  });

  it('a worker picking up a dead run continues its plan instead of starting over', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, crashScript())}`;
    const first = spawn(
      process.execPath,
      [
        CLI_PATH,
        'run',
        '--approval',
        'auto',
        '--model',
        model,
        '--cwd',
        workspace,
        '--plan',
        'always',
        '--yes',
        '--json',
        'Do the six steps',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    first.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/"type":"tool_complete","call_id":"[^"]*","name":"write_file"[^\n]*"task_id":"t3"/.test(out))
        first.kill('SIGKILL');
    });
    await new Promise((resolve) => first.on('close', resolve));

    const worker = await runCli([
      'work',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--yes',
    ]);
    expect(worker.code, worker.stdout + worker.stderr).toBe(0);
    expect(worker.stdout).toContain('2 of 6 tasks already completed');
    expect(worker.stdout).toMatch(/Tasks:\n(\s+✓ \[t\d\] Step t\d completed\n){6}/);
    expect((await readFile(path.join(workspace, 'log.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(
      TASKS,
    );
  });

  it('a run that ended waiting for plan approval continues with --resume and --yes', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const plan = {
      name: 'plan_actions',
      args: { tasks: [{ id: 'a', title: 'Write a', description: 'Write a.txt', depends_on: [] }] },
    };
    const model = `script:${await writeScript(scripts, {
      turns: [
        { toolCalls: [plan] },
        { when: 'approved now', toolCalls: [plan] },
        {
          task: 'a',
          toolCalls: [
            { name: 'write_file', args: { path: 'a.txt', content: 'a' } },
            { name: 'task_completed', args: { summary: 'wrote a' } },
          ],
        },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote a.txt.' } }] },
      ],
    })}`;
    const waiting = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      'write a',
    ]);
    expect(waiting.code).toBe(4);
    const continued = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--resume',
      'last',
      '--yes',
      'approved now',
    ]);
    expect(continued.code, continued.stdout + continued.stderr).toBe(0);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a');
  });
});
