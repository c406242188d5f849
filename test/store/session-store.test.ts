import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import {
  SessionStore,
  SessionStoreError,
  type UnsequencedEvent,
} from '../../src/store/sqlite/session-store.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { openTempDatabase, track } from './temp-database.js';

async function setup() {
  const db = await openTempDatabase();
  const clock = { now: 5_000 };
  const store = new SessionStore(db, { now: () => clock.now });
  return { db, clock, store };
}

function sessionInput(title: string) {
  return { title, goal: `goal of ${title}`, workspace: '/work/ws', model: 'script:demo.json' };
}

function event(sessionId: string, seq: number, runId = 'run_a'): ServerEvent {
  return seq % 2 === 0
    ? {
        type: 'tool_start',
        call_id: `c${seq}`,
        name: 'write_file',
        args: { path: 'a.txt', content: 'x' },
        step: seq,
        session_id: sessionId,
        run_id: runId,
        seq,
        ts: 1_000 + seq,
      }
    : {
        type: 'agent_update',
        update_type: 'agent_reason',
        step: seq,
        content: `thinking ${seq}`,
        session_id: sessionId,
        run_id: runId,
        seq,
        ts: 1_000 + seq,
      };
}

function unsequenced({ seq: _ignored, ...rest }: ServerEvent): UnsequencedEvent {
  return rest;
}

describe('SessionStore', () => {
  it('creates sessions and lists them most recent first', async () => {
    const { clock, store } = await setup();
    const first = store.createSession(sessionInput('first'));
    clock.now += 10;
    const second = store.createSession(sessionInput('second'));
    clock.now += 10;
    const third = store.createSession(sessionInput('third'));
    expect(first).toMatchObject({
      ...sessionInput('first'),
      status: 'idle',
      createdAt: 5_000,
      updatedAt: 5_000,
    });
    expect(store.getSession(second.id)).toEqual(second);
    expect(store.getSession('ses_nope')).toBeUndefined();

    expect(store.listSessions().map((s) => s.title)).toEqual(['third', 'second', 'first']);
    expect(store.listSessions({ limit: 2 }).map((s) => s.title)).toEqual(['third', 'second']);
    expect(store.lastSession()?.id).toBe(third.id);

    // Working in an older session brings it back to the top.
    clock.now += 10;
    store.appendMessage(first.id, 'run_x', 'user', 'again');
    expect(store.lastSession()?.id).toBe(first.id);
  });

  it('has no last session in an empty database', async () => {
    const { store } = await setup();
    expect(store.lastSession()).toBeUndefined();
    expect(store.listSessions()).toEqual([]);
  });

  it('logs events with the next seq of their session, and reads them back in seq order, after a given seq', async () => {
    const { store } = await setup();
    const session = store.createSession(sessionInput('s'));
    const other = store.createSession(sessionInput('other'));
    expect(store.lastSeq(session.id)).toBe(0);
    const stamped = [1, 2, 3, 4, 5].map((seq) => {
      const { seq: _ignored, ...unsequenced } = event(session.id, seq);
      return store.appendEvent(unsequenced);
    });
    expect(stamped.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    store.appendEvent(event(other.id, 1, 'run_b'));

    expect(store.events(session.id)).toEqual([1, 2, 3, 4, 5].map((seq) => event(session.id, seq)));
    expect(store.events(session.id, { afterSeq: 3 }).map((e) => e.seq)).toEqual([4, 5]);
    expect(store.events(session.id, { afterSeq: 5 })).toEqual([]);
    expect(store.events(other.id)).toEqual([event(other.id, 1, 'run_b')]);
    expect(store.lastSeq(session.id)).toBe(5);
  });

  it('keeps the event columns a query needs next to the payload', async () => {
    const { db, store } = await setup();
    const session = store.createSession(sessionInput('s'));
    store.appendEvent(event(session.id, 1));
    store.appendEvent(event(session.id, 2));
    const rows = db.sqlite
      .prepare('SELECT seq, run_id, type, update_type, ts FROM events ORDER BY seq')
      .all();
    expect(rows).toEqual([
      { seq: 1, run_id: 'run_a', type: 'agent_update', update_type: 'agent_reason', ts: 1_001 },
      { seq: 2, run_id: 'run_a', type: 'tool_start', update_type: null, ts: 1_002 },
    ]);
  });

  it('refuses an event for an unknown session, and never reuses a seq: the store gives it, whatever the event carried', async () => {
    const { store } = await setup();
    const session = store.createSession(sessionInput('s'));
    store.appendEvent(event(session.id, 1));
    // An event that carries a seq (here 1, taken; then 7, ahead) is logged under the next one.
    expect(store.appendEvent(event(session.id, 1)).seq).toBe(2);
    expect(store.appendEvent(event(session.id, 7))).toMatchObject({ seq: 3, step: 7 });
    expect(store.events(session.id).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(store.lastSeq(session.id)).toBe(3);
    expect(() => store.appendEvent(event('ses_nope', 1))).toThrow(
      new SessionStoreError('There is no session with the id ses_nope.'),
    );
    expect(store.lastSeq('ses_nope')).toBe(0);
  });

  it('hands out seqs without gap or duplicate when two connections append to one session in turn', async () => {
    const { db, store } = await setup();
    const second = new SessionStore(track(openDatabase({ path: db.path })));
    const session = store.createSession(sessionInput('s'));
    for (let index = 1; index <= 20; index += 1)
      (index % 3 === 0 ? second : store).appendEvent(unsequenced(event(session.id, 0)));
    expect(store.events(session.id).map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('stores the conversation as JSON, in order, per run when asked', async () => {
    const { store } = await setup();
    const session = store.createSession(sessionInput('s'));
    const parts = [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } }];
    const user = store.appendMessage(session.id, 'run_1', 'user', 'write a greeting');
    store.appendMessage(session.id, 'run_1', 'assistant', parts);
    store.appendMessage(session.id, 'run_2', 'user', 'and another');
    expect(user).toMatchObject({
      sessionId: session.id,
      runId: 'run_1',
      role: 'user',
      content: 'write a greeting',
    });

    expect(store.messages(session.id).map((m) => [m.role, m.content])).toEqual([
      ['user', 'write a greeting'],
      ['assistant', parts],
      ['user', 'and another'],
    ]);
    expect(store.messages(session.id, { runId: 'run_2' }).map((m) => m.content)).toEqual(['and another']);
    expect(() => store.appendMessage('ses_nope', 'r', 'user', 'x')).toThrow(
      'There is no session with the id ses_nope.',
    );
  });

  it('records runs from start to finish and marks the session running meanwhile', async () => {
    const { clock, store } = await setup();
    const session = store.createSession(sessionInput('s'));
    clock.now = 6_000;
    const run = store.createRun({ sessionId: session.id, goal: 'build it', mode: 'simple' });
    expect(run).toMatchObject({
      status: 'running',
      steps: 0,
      startedAt: 6_000,
      endedAt: null,
      finalAnswer: null,
    });
    expect(store.getSession(session.id)).toMatchObject({ status: 'running', updatedAt: 6_000 });

    clock.now = 7_000;
    const finished = store.finishRun({
      id: run.id,
      status: 'completed',
      finalAnswer: 'built',
      steps: 4,
      inputTokens: 1200,
      outputTokens: 300,
      mode: 'complex',
    });
    expect(finished).toMatchObject({
      status: 'completed',
      mode: 'complex',
      finalAnswer: 'built',
      endedAt: 7_000,
    });
    expect(store.getSession(session.id)?.status).toBe('idle');

    clock.now = 8_000;
    const second = store.createRun({ sessionId: session.id, goal: 'again', mode: 'simple' });
    expect(store.runs(session.id).map((r) => r.id)).toEqual([run.id, second.id]);
    expect(store.getRun(run.id)).toEqual(finished);
    expect(() =>
      store.finishRun({ id: 'run_nope', status: 'failed', steps: 0, inputTokens: 0, outputTokens: 0 }),
    ).toThrow('There is no run with the id run_nope.');
    expect(() => store.createRun({ sessionId: 'ses_nope', goal: 'g', mode: 'simple' })).toThrow(
      SessionStoreError,
    );
  });

  it('keeps each task its own conversation next to the top-level one', async () => {
    const { db, store } = await setup();
    const tasks = new TaskStore(db);
    const session = store.createSession(sessionInput('s'));
    const other = store.createSession(sessionInput('other'));
    const scaffold = tasks.add({ title: 'scaffold', sessionId: session.id });
    const page = tasks.add({ title: 'page', sessionId: session.id });

    store.appendMessage(session.id, 'run_1', 'user', 'build a web app');
    const first = store.appendMessage(session.id, 'run_1', 'user', 'do the scaffold', {
      taskId: scaffold.id,
    });
    store.appendMessage(session.id, 'run_1', 'assistant', 'scaffold done', { taskId: scaffold.id });
    store.appendMessage(session.id, 'run_1', 'user', 'do the page', { taskId: page.id });
    store.appendMessage(session.id, 'run_1', 'assistant', 'all done', {});
    store.appendMessage(session.id, 'run_2', 'user', 'fix the page', { taskId: page.id });
    store.appendMessage(other.id, 'run_3', 'user', 'elsewhere', { taskId: scaffold.id });
    expect(first).toMatchObject({ taskId: scaffold.id, content: 'do the scaffold', runId: 'run_1' });

    const contents = (filter: Parameters<SessionStore['messages']>[1]) =>
      store.messages(session.id, filter).map((message) => message.content);
    expect(contents({})).toEqual([
      'build a web app',
      'do the scaffold',
      'scaffold done',
      'do the page',
      'all done',
      'fix the page',
    ]);
    expect(contents({ taskId: null })).toEqual(['build a web app', 'all done']);
    expect(contents({ taskId: scaffold.id })).toEqual(['do the scaffold', 'scaffold done']);
    expect(contents({ taskId: page.id })).toEqual(['do the page', 'fix the page']);
    expect(contents({ taskId: page.id, runId: 'run_2' })).toEqual(['fix the page']);
    expect(contents({ taskId: null, runId: 'run_2' })).toEqual([]);
    expect(store.messages(session.id, { taskId: null }).every((message) => message.taskId === null)).toBe(
      true,
    );

    expect(() => store.appendMessage(session.id, 'run_1', 'user', 'x', { taskId: 'task_nope' })).toThrow(
      new SessionStoreError('There is no task with the id task_nope.'),
    );
    expect(() => store.appendMessage('ses_nope', 'run_1', 'user', 'x', { taskId: page.id })).toThrow(
      'There is no session with the id ses_nope.',
    );

    // Deleting a task keeps what was said; the messages move to the top-level conversation.
    tasks.delete(scaffold.id);
    expect(contents({ taskId: null })).toEqual([
      'build a web app',
      'do the scaffold',
      'scaffold done',
      'all done',
    ]);
    expect(store.messages(other.id).map((message) => message.taskId)).toEqual([null]);
  });

  it('finds the latest session with work left: a run still marked running or an unfinished plan', async () => {
    const { db, clock, store } = await setup();
    const tasks = new TaskStore(db, { now: () => clock.now });
    const finish = (runId: string) =>
      store.finishRun({ id: runId, status: 'completed', steps: 1, inputTokens: 0, outputTokens: 0 });
    expect(store.latestSessionWithUnfinishedWork()).toBeUndefined();

    const done = store.createSession(sessionInput('done'));
    clock.now += 10;
    finish(store.createRun({ sessionId: done.id, goal: 'g', mode: 'simple' }).id);
    clock.now += 10;
    const proposedOnly = store.createSession(sessionInput('proposed plan only'));
    tasks.createPlan({
      sessionId: proposedOnly.id,
      runId: 'r',
      tasks: [{ key: 't1', title: 'a', description: '', dependsOn: [] }],
    });
    expect(store.latestSessionWithUnfinishedWork()).toBeUndefined();

    clock.now += 10;
    const interrupted = store.createSession(sessionInput('interrupted'));
    const crashedRun = store.createRun({ sessionId: interrupted.id, goal: 'g', mode: 'simple' });
    expect(store.latestSessionWithUnfinishedWork()?.id).toBe(interrupted.id);

    clock.now += 10;
    const planned = store.createSession(sessionInput('planned'));
    const plannedRun = store.createRun({ sessionId: planned.id, goal: 'g', mode: 'complex' });
    const { plan, tasks: planTasks } = tasks.createPlan({
      sessionId: planned.id,
      runId: plannedRun.id,
      tasks: [
        { key: 't1', title: 'a', description: '', dependsOn: [] },
        { key: 't2', title: 'b', description: '', dependsOn: ['t1'] },
      ],
    });
    tasks.setPlanStatus(plan.id, 'approved');
    clock.now += 10;
    finish(plannedRun.id);
    // The run ended (stopped, say) with the plan half done: the plan is the work left.
    tasks.complete(tasks.start(planTasks[0]!.id).id, 'ok');
    expect(store.latestSessionWithUnfinishedWork()?.id).toBe(planned.id);

    tasks.cancel(planTasks[1]!.id);
    expect(store.latestSessionWithUnfinishedWork()?.id).toBe(interrupted.id);

    // Only the last run counts: a newer run that ended means the old one is not resumed.
    clock.now += 10;
    finish(store.createRun({ sessionId: interrupted.id, goal: 'again', mode: 'simple' }).id);
    expect(store.getRun(crashedRun.id)?.status).toBe('running');
    expect(store.latestSessionWithUnfinishedWork()).toBeUndefined();
  });
});
