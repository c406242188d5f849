import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindOf, nextEvent, openRuntime, record, update } from './helpers.js';

/** Two turns that write `<name>.txt` for a goal mentioning it, then answer. */
function writeTurns(name: string, options: { latencyMs?: number } = {}) {
  return [
    {
      when: `write ${name}.txt`,
      ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
      toolCalls: [{ name: 'write_file', args: { path: `${name}.txt`, content: name } }],
    },
    { when: `Created ${name}.txt`, text: `Wrote ${name}.txt.` },
  ];
}

function goalsStarted(events: ReturnType<typeof record>): string[] {
  return events.flatMap((event) =>
    event.type === 'agent_update' && event.update_type === 'agent_start' ? [event.goal] : [],
  );
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

describe('Runtime.submit', () => {
  it('runs a goal to completion: the final answer, the stored session and run, the completed queue task', async () => {
    const runtime = await openRuntime(writeTurns('hello'));
    const submission = await runtime.submit('write hello.txt please');
    expect(submission.kind).toBe('started');
    if (submission.kind !== 'started') return;
    const { result, drained } = await submission.done;
    expect(result).toMatchObject({
      status: 'completed',
      finalAnswer: 'Wrote hello.txt.',
      cancelled: false,
      sessionId: submission.sessionId,
    });
    expect(drained).toBeUndefined();
    expect(await readFile(path.join(runtime.workspace.root, 'hello.txt'), 'utf8')).toBe('hello');

    const detail = await runtime.sessions.detail(submission.sessionId, { events: true });
    expect(detail.session.goal).toBe('write hello.txt please');
    expect(detail.runs.map((run) => [run.status, run.finalAnswer])).toEqual([
      ['completed', 'Wrote hello.txt.'],
    ]);
    expect(detail.events?.map(kindOf).at(-1)).toBe('response_complete');

    const task = await runtime.tasks.get(submission.task.id);
    expect(task).toMatchObject({
      status: 'completed',
      sessionId: submission.sessionId,
      resultSummary: 'Wrote hello.txt.',
      leaseOwner: null,
    });
    expect(await runtime.tasks.list()).toEqual([]);
    expect(runtime.isRunning(submission.sessionId)).toBe(false);
  });

  it('queues a goal submitted while another runs (position 2) and runs it after the first', async () => {
    const runtime = await openRuntime([
      ...writeTurns('first', { latencyMs: 1_000 }),
      ...writeTurns('second'),
    ]);
    const events = record(runtime);
    const first = await runtime.submit('write first.txt');
    expect(first.kind).toBe('started');
    if (first.kind !== 'started') return;

    const second = await runtime.submit('write second.txt');
    expect(second.kind).toBe('queued');
    if (second.kind !== 'queued') return;
    expect(second.position).toBe(2);
    expect(second.running?.id).toBe(first.task.id);
    expect((await runtime.tasks.get(second.task.id))?.status).toBe('pending');

    const outcome = await first.done;
    expect(outcome.result.status).toBe('completed');
    expect(outcome.drained).toEqual({ completed: 1, failed: 0, stopped: false });
    expect(goalsStarted(events)).toEqual(['write first.txt', 'write second.txt']);
    // The second started only after the first had ended.
    const firstEnd = events.findIndex(
      (event) => event.type === 'response_complete' && event.session_id === first.sessionId,
    );
    const secondStart = events.findIndex(
      (event) => kindOf(event) === 'agent_start' && event.session_id !== first.sessionId,
    );
    expect(firstEnd).toBeGreaterThanOrEqual(0);
    expect(secondStart).toBeGreaterThan(firstEnd);

    const tasks = await runtime.tasks.list({ all: true });
    expect(tasks.map((task) => [task.id, task.status, task.resultSummary])).toEqual([
      [first.task.id, 'completed', 'Wrote first.txt.'],
      [second.task.id, 'completed', 'Wrote second.txt.'],
    ]);
    expect(await readFile(path.join(runtime.workspace.root, 'second.txt'), 'utf8')).toBe('second');
  });

  it('with interrupt, cancels the running goal (cancelled: true) and runs the new one', async () => {
    const runtime = await openRuntime([
      {
        when: 'write slow.txt',
        latencyMs: 8_000,
        toolCalls: [{ name: 'write_file', args: { path: 'slow.txt', content: 'slow' } }],
      },
      ...writeTurns('urgent'),
    ]);
    const slow = await runtime.submit('write slow.txt');
    if (slow.kind !== 'started') throw new Error('the first goal did not start');
    await nextEvent(runtime, update('agent_turn_start'));

    const started = Date.now();
    const urgent = await runtime.submit('write urgent.txt', { interrupt: true });
    expect(urgent.kind).toBe('started');
    if (urgent.kind !== 'started') return;
    const [slowOutcome, urgentOutcome] = await Promise.all([slow.done, urgent.done]);
    expect(Date.now() - started).toBeLessThan(6_000);

    expect(slowOutcome.result.cancelled).toBe(true);
    expect(slowOutcome.result.status).not.toBe('completed');
    expect((await runtime.tasks.get(slow.task.id))?.status).toBe('cancelled');
    expect(urgentOutcome.result).toMatchObject({ status: 'completed', finalAnswer: 'Wrote urgent.txt.' });
    expect((await runtime.tasks.get(urgent.task.id))?.status).toBe('completed');
    expect(await exists(path.join(runtime.workspace.root, 'slow.txt'))).toBe(false);
    expect(await readFile(path.join(runtime.workspace.root, 'urgent.txt'), 'utf8')).toBe('urgent');
    expect((await runtime.sessions.detail(slow.sessionId)).runs.map((run) => run.status)).toEqual([
      'stopped',
    ]);
  });

  it('tasks.cancel of the running goal stops it at the next step boundary', async () => {
    const runtime = await openRuntime([
      {
        when: 'write never.txt',
        latencyMs: 8_000,
        toolCalls: [{ name: 'write_file', args: { path: 'never.txt', content: 'x' } }],
      },
    ]);
    const submission = await runtime.submit('write never.txt');
    if (submission.kind !== 'started') throw new Error('the goal did not start');
    await nextEvent(runtime, update('agent_turn_start'));

    const started = Date.now();
    const cancelled = await runtime.tasks.cancel(submission.task.id.slice(0, 12));
    expect(cancelled.status).toBe('cancelled');
    const { result, drained } = await submission.done;
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ cancelled: true, status: 'stopped' });
    expect(drained).toBeUndefined();
    expect(await exists(path.join(runtime.workspace.root, 'never.txt'))).toBe(false);
    expect((await runtime.tasks.get(submission.task.id))?.status).toBe('cancelled');
    expect((await runtime.sessions.detail(submission.sessionId)).runs.map((run) => run.status)).toEqual([
      'stopped',
    ]);
    expect(runtime.isRunning(submission.sessionId)).toBe(false);
  });

  it("a goal stopped from another process (the web's Stop beside a separate worker) is stopped, and resume continues it", async () => {
    const runner = await openRuntime([
      {
        when: 'write later.txt',
        latencyMs: 8_000,
        toolCalls: [{ name: 'write_file', args: { path: 'later.txt', content: 'early' } }],
      },
    ]);
    const notices: string[] = [];
    runner.onNotice((text) => notices.push(text));
    const submission = await runner.submit('write later.txt');
    if (submission.kind !== 'started') throw new Error('the goal did not start');
    await nextEvent(runner, update('agent_turn_start'));

    // A second process on the same workspace: the server the stop button talks to.
    const other = await openRuntime(
      [
        {
          when: 'asks to continue it',
          toolCalls: [{ name: 'write_file', args: { path: 'later.txt', content: 'later' } }],
        },
        { when: 'Created later.txt', text: 'Wrote later.txt.' },
      ],
      { cwd: runner.workspace.root },
    );
    const started = Date.now();
    expect(await other.stopSession(submission.sessionId)).toBe(true);
    const { result } = await submission.done;
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result).toMatchObject({ cancelled: true, status: 'stopped' });
    expect(notices.join('\n')).toContain('the task "write later.txt" was stopped; stopping it');
    expect(await runner.tasks.get(submission.task.id)).toMatchObject({
      status: 'stopped',
      failReason: 'stopped: the user stopped it from another process',
      leaseOwner: null,
    });
    expect((await runner.sessions.detail(submission.sessionId)).runs.map((run) => run.status)).toEqual([
      'stopped',
    ]);
    expect(await exists(path.join(runner.workspace.root, 'later.txt'))).toBe(false);

    expect(await other.hasWorkToResume(submission.sessionId)).toBe(true);
    const outcome = await other.resume({ session: submission.sessionId });
    expect(outcome).toMatchObject({ kind: 'resumed', result: { status: 'completed' } });
    expect(await other.tasks.get(submission.task.id)).toMatchObject({
      status: 'completed',
      resultSummary: 'Wrote later.txt.',
    });
    expect(await readFile(path.join(runner.workspace.root, 'later.txt'), 'utf8')).toBe('later');
  });

  it('stops a goal another worker took over (its lease was lost) without closing it, and says why', async () => {
    const runtime = await openRuntime([
      {
        when: 'write never.txt',
        latencyMs: 8_000,
        toolCalls: [{ name: 'write_file', args: { path: 'never.txt', content: 'x' } }],
      },
    ]);
    const notices: string[] = [];
    runtime.onNotice((text) => notices.push(text));
    const submission = await runtime.submit('write never.txt');
    if (submission.kind !== 'started') throw new Error('the goal did not start');
    await nextEvent(runtime, update('agent_turn_start'));
    const task = await runtime.tasks.get(submission.task.id);

    // As if this process had been paused past its lease and another worker had taken the task.
    await runtime.store.tasks.takeOver(task!.id, {
      from: task!.leaseOwner,
      owner: 'other-worker',
      leaseMs: 60_000,
    });
    const { result } = await submission.done;
    expect(result).toMatchObject({ cancelled: true, leaseLost: true, status: 'stopped' });
    expect(notices.join('\n')).toMatch(/another worker took over the task "write never.txt"/);
    // Not closed here: the worker that holds it now finishes it.
    expect(await runtime.tasks.get(task!.id)).toMatchObject({
      status: 'in_progress',
      leaseOwner: 'other-worker',
    });
    expect(await exists(path.join(runtime.workspace.root, 'never.txt'))).toBe(false);
  });
});
