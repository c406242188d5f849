import { access, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { CONTINUE_INTERRUPTED } from '../../src/runtime/worker/continue-session.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { kindOf, nextEvent, openRuntime, record, scriptModel, startFixture, update } from './helpers.js';

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * Runs a goal in a second process with `firstTurns` and kills it (SIGKILL) once an event matches:
 * it leaves its run marked running and its goal task in progress under its (now dead) lease.
 */
async function crashInSecondProcess(
  workspace: string,
  firstTurns: unknown[],
  goal: string,
  killWhen: (event: ServerEvent) => boolean,
): Promise<ServerEvent[]> {
  const fixture = startFixture(['run', workspace, await scriptModel(firstTurns), goal]);
  await fixture.waitForLine((line) => killWhen(JSON.parse(line)));
  fixture.child.kill('SIGKILL');
  const { signal } = await fixture.closed;
  expect(signal).toBe('SIGKILL');
  return fixture.lines.map((line) => JSON.parse(line));
}

// A fixture process started through tsx; under load its start alone can take tens of seconds.
describe('Runtime.resume', { timeout: 120_000 }, () => {
  it("takes over a dead worker's goal and finishes its interrupted run", async () => {
    const workspace = await tempWorkspaceRoot('taskweave-rt-');
    const before = await crashInSecondProcess(
      workspace,
      [{ latencyMs: 20_000, text: 'never said' }],
      'tidy up the workspace',
      (event) => kindOf(event) === 'agent_turn_start',
    );
    const sessionId = before[0]!.session_id;

    const runtime = await openRuntime(
      [
        {
          when: 'was interrupted',
          toolCalls: [{ name: 'write_file', args: { path: 'tidy.txt', content: 'tidy' } }],
        },
        { when: 'Created tidy.txt', text: 'Tidied up after the interruption.' },
      ],
      { cwd: workspace },
    );
    const [goalTask] = await runtime.tasks.list();
    expect(goalTask).toMatchObject({ status: 'in_progress', sessionId });
    expect(goalTask?.leaseOwner).toMatch(/^worker:/);

    const events = record(runtime);
    const outcome = await runtime.resume();
    expect(outcome).toMatchObject({
      kind: 'resumed',
      result: {
        sessionId,
        status: 'completed',
        finalAnswer: 'Tidied up after the interruption.',
        cancelled: false,
      },
    });
    expect(events.every((event) => event.session_id === sessionId)).toBe(true);
    // The event log goes on after what the dead process logged, with no gap.
    expect(events[0]!.seq).toBe(before.at(-1)!.seq + 1);
    expect(await readFile(path.join(workspace, 'tidy.txt'), 'utf8')).toBe('tidy');
    expect(await runtime.tasks.get(goalTask!.id)).toMatchObject({
      status: 'completed',
      resultSummary: 'Tidied up after the interruption.',
      leaseOwner: null,
    });
    const detail = await runtime.sessions.detail(sessionId);
    expect(detail.runs.map((run) => run.status)).toEqual(['stopped', 'completed']);
    expect(JSON.stringify(detail.messages)).toContain(CONTINUE_INTERRUPTED);
    // The model reads taskweave's message; people see the run under the goal it continues.
    expect(detail.runs.map((run) => run.goal)).toEqual(['tidy up the workspace', 'tidy up the workspace']);
    const start = events.find((event) => kindOf(event) === 'agent_start');
    expect(start).toMatchObject({ goal: 'tidy up the workspace', continued: true });

    expect(await runtime.resume()).toMatchObject({ kind: 'nothing' });
  });

  it("runs a dead worker's goal from its start when the worker died before saving the goal's message", async () => {
    const workspace = await tempWorkspaceRoot('taskweave-rt-');
    const before = await crashInSecondProcess(
      workspace,
      [{ latencyMs: 20_000, text: 'never said' }],
      'tidy up the workspace',
      (event) => kindOf(event) === 'agent_turn_start',
    );
    const sessionId = before[0]!.session_id;
    const runtime = await openRuntime(
      [
        {
          when: 'tidy up the workspace',
          toolCalls: [{ name: 'write_file', args: { path: 'tidy.txt', content: 'tidy' } }],
        },
        { when: 'Created tidy.txt', text: 'Tidied up.' },
      ],
      { cwd: workspace },
    );
    // The window in which the process had recorded its run but not yet saved the goal's message.
    const sqlite = new Database(runtime.databasePath);
    sqlite.prepare('DELETE FROM messages WHERE session_id = ?').run(sessionId);
    sqlite.close();
    const outcome = await runtime.resume();
    // Told only to continue, the model would not know the request: it is given the goal itself.
    expect(outcome).toMatchObject({
      kind: 'resumed',
      result: { status: 'completed', finalAnswer: 'Tidied up.' },
    });
    expect(await readFile(path.join(workspace, 'tidy.txt'), 'utf8')).toBe('tidy');
    const detail = await runtime.sessions.detail(sessionId);
    expect(JSON.stringify(detail.messages)).not.toContain(CONTINUE_INTERRUPTED);
  });

  it('resumes a plan without running its completed task again', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-rt-');
    const plan = {
      name: 'plan_actions',
      args: {
        tasks: [
          { id: 't1', title: 'Write one', description: 'Write one.txt', depends_on: [] },
          { id: 't2', title: 'Write two', description: 'Write two.txt', depends_on: ['t1'] },
        ],
      },
    };
    const before = await crashInSecondProcess(
      workspace,
      [
        { toolCalls: [plan] },
        {
          task: 't1',
          toolCalls: [
            { name: 'write_file', args: { path: 'one.txt', content: 'one' } },
            { name: 'task_completed', args: { summary: 'wrote one.txt' } },
          ],
        },
        {
          task: 't2',
          latencyMs: 20_000,
          toolCalls: [{ name: 'task_completed', args: { summary: 'never' } }],
        },
      ],
      'write one and two',
      (event) =>
        event.type === 'agent_update' && event.update_type === 'task_started' && event.task_id === 't2',
    );
    expect(before.filter((event) => kindOf(event) === 'task_completed')).toHaveLength(1);

    // The resuming process's script: t1's turn would leave a trace if t1 ran again.
    const runtime = await openRuntime(
      [
        {
          task: 't1',
          toolCalls: [
            { name: 'write_file', args: { path: 't1-ran-again.txt', content: 'again' } },
            { name: 'task_completed', args: { summary: 'wrote one.txt again' } },
          ],
        },
        {
          task: 't2',
          toolCalls: [
            { name: 'write_file', args: { path: 'two.txt', content: 'two' } },
            { name: 'task_completed', args: { summary: 'wrote two.txt' } },
          ],
        },
        { toolCalls: [{ name: 'final_answer', args: { answer: 'Wrote one.txt and two.txt.' } }] },
      ],
      { cwd: workspace },
    );
    const events = record(runtime);
    const outcome = await runtime.resume();
    expect(outcome).toMatchObject({
      kind: 'resumed',
      result: { status: 'completed', finalAnswer: 'Wrote one.txt and two.txt.', cancelled: false },
    });
    expect(events.find(update('plan_resumed'))).toMatchObject({ completed: ['t1'] });
    expect(
      events.flatMap((event) =>
        event.type === 'agent_update' && event.update_type === 'task_started' ? [event.task_id] : [],
      ),
    ).toEqual(['t2']);
    expect(await exists(path.join(workspace, 't1-ran-again.txt'))).toBe(false);
    expect(await readFile(path.join(workspace, 'one.txt'), 'utf8')).toBe('one');
    expect(await readFile(path.join(workspace, 'two.txt'), 'utf8')).toBe('two');

    const all = await runtime.tasks.listEverything();
    expect(
      all.filter((task) => task.planId !== null).map((task) => [task.key, task.status, task.attempts]),
    ).toEqual([
      ['t1', 'completed', 1],
      ['t2', 'completed', 1],
    ]);
    expect(all.filter((task) => task.planId === null).map((task) => task.status)).toEqual(['completed']);
  });

  it('closes a goal whose run completed before its worker died, without running it again', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-rt-done-');
    const first = await openRuntime([{ text: 'Said hello.' }], { cwd: workspace });
    const submission = await first.submit('say hello');
    if (submission.kind !== 'started') throw new Error('expected the goal to start');
    await submission.done;
    // The worker died after the run completed and before it closed the goal's task (kill -9 in
    // between): the task is left in progress under the dead worker's lease.
    const sqlite = new Database(first.databasePath);
    sqlite
      .prepare(
        "UPDATE tasks SET status = 'in_progress', result_summary = NULL, lease_owner = ?, lease_expires_at = ? WHERE id = ?",
      )
      .run(`worker:${hostname()}:999999999:dead`, Date.now() + 60_000, submission.task.id);
    sqlite.close();

    // A run of the goal again would answer this.
    const second = await openRuntime([{ text: 'Said hello a second time.' }], { cwd: workspace });
    const outcome = await second.work();
    expect(outcome).toEqual({ kind: 'drained', summary: { completed: 1, failed: 0, stopped: false } });
    expect(await second.tasks.get(submission.task.id)).toMatchObject({
      status: 'completed',
      resultSummary: 'Said hello.',
    });
    const detail = await second.sessions.detail(submission.sessionId);
    expect(detail.runs.map((run) => run.status)).toEqual(['completed']);
  });

  it('refuses to resume a session a live worker of this machine still runs', async () => {
    const runtime = await openRuntime([{ when: 'slow goal', latencyMs: 8_000, text: 'done slowly' }]);
    const submission = await runtime.submit('slow goal');
    if (submission.kind !== 'started') throw new Error('the goal did not start');
    await nextEvent(runtime, update('agent_turn_start'));
    await expect(runtime.resume({ session: submission.sessionId })).rejects.toThrow(/live process/);
    expect((await runtime.tasks.get(submission.task.id))?.status).toBe('in_progress');
    runtime.stop(submission.sessionId);
    expect((await submission.done).result.status).toBe('stopped');
  });
});
