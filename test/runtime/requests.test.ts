import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { APPROVE_PLANS, ASK_ALL, kindOf, nextEvent, openRuntime, record, update } from './helpers.js';

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function planCall(tasks: { id: string; file: string; depends_on?: string[] }[]) {
  return {
    name: 'plan_actions',
    args: {
      tasks: tasks.map((task) => ({
        id: task.id,
        title: `Write ${task.file}`,
        description: `Write ${task.file}`,
        depends_on: task.depends_on ?? [],
      })),
    },
  };
}

function writeTask(id: string, file: string) {
  return {
    task: id,
    toolCalls: [
      { name: 'write_file', args: { path: file, content: id } },
      { name: 'task_completed', args: { summary: `wrote ${file}` } },
    ],
  };
}

const FINAL = { toolCalls: [{ name: 'final_answer', args: { answer: 'All done.' } }] };

async function start(runtime: Runtime, goal: string) {
  const submission = await runtime.submit(goal);
  if (submission.kind !== 'started') throw new Error('the goal did not start');
  return submission;
}

describe('requests answered through the runtime', () => {
  it('a question is listed, refuses wrong answers, and its answer reaches the model', async () => {
    const runtime = await openRuntime(
      [
        { toolCalls: [{ name: 'request_input', args: { question: 'Which name goes in name.txt?' } }] },
        {
          when: 'The user answered: Ada Lovelace',
          toolCalls: [{ name: 'write_file', args: { path: 'name.txt', content: 'Ada Lovelace' } }],
        },
        { when: 'Created name.txt', text: 'Wrote the name.' },
      ],
      { policy: ASK_ALL },
    );
    const events = record(runtime);
    const asked = nextEvent(runtime, update('agent_request_input'));
    const submission = await start(runtime, 'write a name into name.txt');
    const request = await asked;
    expect(request.question).toBe('Which name goes in name.txt?');
    expect(runtime.pendingRequests()).toEqual([
      {
        requestId: request.request_id,
        kind: 'input',
        question: 'Which name goes in name.txt?',
        sessionId: submission.sessionId,
      },
    ]);

    // Refused: a wrong kind of answer, an unknown id. Nothing changes.
    const wrongKind = await runtime.answer(request.request_id, { kind: 'plan', decision: 'approve' });
    expect(wrongKind.ok).toBe(false);
    if (!wrongKind.ok) expect(wrongKind.error).toMatch(/input answer/);
    const unknown = await runtime.answer('no-such-request', { kind: 'input', content: 'Grace Hopper' });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toMatch(/No request no-such-request/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runtime.pendingRequests().map((pending) => pending.requestId)).toEqual([request.request_id]);
    expect(events.some((event) => kindOf(event) === 'agent_user_input')).toBe(false);

    expect(await runtime.answer(request.request_id, { kind: 'input', content: 'Ada Lovelace' })).toEqual({
      ok: true,
    });
    // Answered once: a second answer finds nothing waiting.
    expect((await runtime.answer(request.request_id, { kind: 'input', content: 'again' })).ok).toBe(false);
    const { result } = await submission.done;
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Wrote the name.' });
    expect(await readFile(path.join(runtime.workspace.root, 'name.txt'), 'utf8')).toBe('Ada Lovelace');
    expect(events.find(update('agent_user_input'))).toMatchObject({
      request_id: request.request_id,
      content: 'Ada Lovelace',
    });
    expect(runtime.pendingRequests()).toEqual([]);
  });

  it('a plan runs only once approved through the runtime', async () => {
    const runtime = await openRuntime(
      [{ toolCalls: [planCall([{ id: 'a', file: 'a.txt' }])] }, writeTask('a', 'a.txt'), FINAL],
      {
        policy: ASK_ALL,
      },
    );
    const events = record(runtime);
    const proposed = nextEvent(runtime, update('plan_proposed'));
    const submission = await start(runtime, 'write a.txt as a plan');
    const plan = await proposed;
    expect(runtime.pendingRequests()).toEqual([
      { requestId: plan.plan_id, kind: 'plan', sessionId: submission.sessionId },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await exists(path.join(runtime.workspace.root, 'a.txt'))).toBe(false);
    expect(events.some((event) => kindOf(event) === 'task_started')).toBe(false);
    expect((await runtime.answer(plan.plan_id, { kind: 'failure', decision: 'retry' })).ok).toBe(false);

    expect(await runtime.answer(plan.plan_id, { kind: 'plan', decision: 'approve' })).toEqual({ ok: true });
    const { result } = await submission.done;
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'All done.' });
    expect(await readFile(path.join(runtime.workspace.root, 'a.txt'), 'utf8')).toBe('a');
    expect(events.map(kindOf).filter((kind) => kind.startsWith('plan_') || kind.startsWith('task_'))).toEqual(
      ['plan_proposed', 'plan_approved', 'task_started', 'task_completed'],
    );
  });

  it('a rejected plan goes back to the model with the feedback; the revision is approved and runs', async () => {
    const runtime = await openRuntime(
      [
        { toolCalls: [planCall([{ id: 'x', file: 'x.txt' }])] },
        { when: 'Their feedback: write y.txt instead', toolCalls: [planCall([{ id: 'y', file: 'y.txt' }])] },
        writeTask('x', 'x.txt'),
        writeTask('y', 'y.txt'),
        FINAL,
      ],
      { policy: ASK_ALL },
    );
    const events = record(runtime);
    const decisions: string[] = [];
    runtime.bus.subscribe((event) => {
      if (event.type !== 'agent_update' || event.update_type !== 'plan_proposed') return;
      const first = decisions.length === 0;
      decisions.push(event.plan_id);
      void runtime.answer(
        event.plan_id,
        first
          ? { kind: 'plan', decision: 'reject', feedback: 'write y.txt instead' }
          : { kind: 'plan', decision: 'approve' },
      );
    });
    const submission = await start(runtime, 'write a file as a plan');
    const { result } = await submission.done;
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'All done.' });
    expect(decisions).toHaveLength(2);
    expect(decisions[0]).not.toBe(decisions[1]);
    expect(events.find(update('plan_rejected'))).toMatchObject({
      plan_id: decisions[0],
      feedback: 'write y.txt instead',
    });
    expect(events.find(update('plan_approved'))).toMatchObject({ plan_id: decisions[1] });
    expect(await exists(path.join(runtime.workspace.root, 'x.txt'))).toBe(false);
    expect(await readFile(path.join(runtime.workspace.root, 'y.txt'), 'utf8')).toBe('y');
  });

  it('a failed task is retried, then another is skipped, as answered', async () => {
    const runtime = await openRuntime(
      [
        {
          toolCalls: [
            planCall([
              { id: 'a', file: 'a.txt' },
              { id: 'b', file: 'b.txt', depends_on: ['a'] },
            ]),
          ],
        },
        { task: 'a', toolCalls: [{ name: 'fail_task', args: { reason: 'the disk was busy' } }] },
        writeTask('a', 'a.txt'),
        { task: 'b', toolCalls: [{ name: 'fail_task', args: { reason: 'b cannot be done' } }] },
        writeTask('b', 'b-written.txt'),
        FINAL,
      ],
      { policy: { ...ASK_ALL, plan: 'approve' } },
    );
    const events = record(runtime);
    const requests: {
      taskId: string;
      reason: string;
      blocked: string[];
      refusedWrongKind: boolean;
      choices: string[];
      resolve: string;
    }[] = [];
    runtime.bus.subscribe(async (event) => {
      if (event.type !== 'agent_update' || event.update_type !== 'failure_decision_requested') return;
      const wrong = await runtime.answer(event.request_id, { kind: 'input', content: 'retry' });
      // Resolve is for a merge conflict only: not offered here, and refused.
      const resolve = await runtime.answer(event.request_id, { kind: 'failure', decision: 'resolve' });
      requests.push({
        taskId: event.task_id,
        reason: event.reason,
        blocked: event.blocked,
        refusedWrongKind: !wrong.ok,
        choices: event.choices,
        resolve: resolve.ok ? 'taken' : resolve.error,
      });
      void runtime.answer(event.request_id, {
        kind: 'failure',
        decision: event.task_id === 'a' ? 'retry' : 'skip',
      });
    });
    const submission = await start(runtime, 'write a and b');
    const { result } = await submission.done;
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'All done.' });
    const offered = ['retry', 'skip', 'revise', 'abort'];
    const refused = expect.stringContaining(
      'offers retry, skip, revise, abort, not resolve (only a merge conflict can be resolved)',
    );
    expect(requests).toEqual([
      {
        taskId: 'a',
        reason: 'the disk was busy',
        blocked: ['b'],
        refusedWrongKind: true,
        choices: offered,
        resolve: refused,
      },
      {
        taskId: 'b',
        reason: 'b cannot be done',
        blocked: [],
        refusedWrongKind: true,
        choices: offered,
        resolve: refused,
      },
    ]);
    expect(await readFile(path.join(runtime.workspace.root, 'a.txt'), 'utf8')).toBe('a');
    expect(await exists(path.join(runtime.workspace.root, 'b-written.txt'))).toBe(false);
    const taskEvents = events.flatMap((event: ServerEvent) =>
      event.type === 'agent_update' && event.update_type.startsWith('task_') && 'task_id' in event
        ? [`${event.update_type}:${event.task_id}`]
        : [],
    );
    expect(taskEvents).toEqual([
      'task_started:a',
      'task_failed:a',
      // Its dependent waits for the decision.
      'task_blocked:b',
      'task_started:a',
      'task_completed:a',
      'task_started:b',
      'task_failed:b',
      'task_skipped:b',
    ]);
    const planTasks = (await runtime.tasks.listEverything()).filter((task) => task.planId !== null);
    expect(planTasks.map((task) => [task.key, task.status])).toEqual([
      ['a', 'completed'],
      ['b', 'skipped'],
    ]);
  });

  it('stop ends a run waiting for an answer with status stopped', async () => {
    const runtime = await openRuntime(
      [
        { toolCalls: [{ name: 'request_input', args: { question: 'Go on?' } }] },
        { text: 'should not be reached' },
      ],
      { policy: ASK_ALL },
    );
    const asked = nextEvent(runtime, update('agent_request_input'));
    const submission = await start(runtime, 'ask me something');
    const request = await asked;
    expect(runtime.pendingRequests()).toHaveLength(1);
    runtime.stop(submission.sessionId);
    const { result } = await submission.done;
    expect(result.status).toBe('stopped');
    expect(result.finalAnswer).toBeUndefined();
    expect(runtime.pendingRequests()).toEqual([]);
    expect((await runtime.answer(request.request_id, { kind: 'input', content: 'yes' })).ok).toBe(false);
    const detail = await runtime.sessions.detail(submission.sessionId, { events: true });
    expect(detail.runs.map((run) => run.status)).toEqual(['stopped']);
    expect(detail.events?.at(-1)).toMatchObject({ type: 'response_complete', status: 'stopped' });
    // The stopped goal is not left in the queue for a worker to pick up again: it is `stopped`
    // in the to-do list (resume continues it), not pending.
    expect((await runtime.tasks.list()).map((task) => task.status)).toEqual(['stopped']);
  });
  it('a later goal given in a stopped session moves past the stopped goal: it and its plan are closed, resume has nothing left', async () => {
    const runtime = await openRuntime(
      [
        {
          toolCalls: [
            planCall([
              { id: 'a', file: 'a.txt' },
              { id: 'b', file: 'b.txt', depends_on: ['a'] },
            ]),
          ],
        },
        { ...writeTask('a', 'a.txt'), latencyMs: 8_000 },
        {
          when: 'write c.txt instead',
          toolCalls: [{ name: 'write_file', args: { path: 'c.txt', content: 'c' } }],
        },
        { when: 'Created c.txt', text: 'Wrote c.txt.' },
      ],
      { policy: APPROVE_PLANS },
    );
    const taskStarted = nextEvent(runtime, update('task_started'));
    const first = await start(runtime, 'write a.txt and b.txt as a plan');
    await taskStarted;
    runtime.stop(first.sessionId);
    expect((await first.done).result.status).toBe('stopped');
    expect((await runtime.tasks.get(first.task.id))?.status).toBe('stopped');
    expect(await runtime.hasWorkToResume(first.sessionId)).toBe(true);

    const later = await runtime.submit('write c.txt instead', { sessionId: first.sessionId });
    if (later.kind !== 'started') throw new Error('the later goal did not start');
    expect((await later.done).result).toMatchObject({ status: 'completed', finalAnswer: 'Wrote c.txt.' });
    const all = await runtime.store.tasks.listAll({ sessionId: first.sessionId });
    expect(all.filter((task) => task.planId !== null).map((task) => task.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
    expect((await runtime.tasks.get(first.task.id))?.status).toBe('cancelled');
    expect((await runtime.tasks.get(later.task.id))?.status).toBe('completed');
    expect(await runtime.hasWorkToResume(first.sessionId)).toBe(false);
    expect(await runtime.resume()).toMatchObject({ kind: 'nothing' });
    expect(await exists(path.join(runtime.workspace.root, 'a.txt'))).toBe(false);
  });
});
