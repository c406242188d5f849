import { describe, expect, it } from 'vitest';
import type { TaskweaveDb } from '../../src/store/database.js';
import { SessionStore } from '../../src/store/session-store.js';
import { planQueue, TaskStore, TaskStoreError } from '../../src/store/task-store.js';
import { openTempDatabase } from './temp-database.js';

const LEASE_MS = 30_000;

/** A store on a fresh database with a clock the test moves. */
async function setup() {
  const db = await openTempDatabase();
  const clock = { now: 1_000_000 };
  const store = new TaskStore(db, { now: () => clock.now });
  return { db, clock, store };
}

function session(db: TaskweaveDb): string {
  return new SessionStore(db).createSession({ title: 't', goal: 'g', workspace: '/w', model: 'm' }).id;
}

describe('TaskStore: the to-do list', () => {
  it('appends tasks at the end of their own queue and lists the active ones in order', async () => {
    const { store } = await setup();
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b', description: 'second', checkCommand: 'npm test' });
    const other = store.add({ title: 'x', queue: 'other' });
    const c = store.add({ title: 'c' });
    expect([a.sequence, b.sequence, c.sequence]).toEqual([1, 2, 3]);
    expect(other.sequence).toBe(1);
    expect(b).toMatchObject({
      status: 'pending',
      attempts: 0,
      description: 'second',
      checkCommand: 'npm test',
    });
    expect(store.get(b.id)).toEqual(b);

    store.complete(store.claimNext({ owner: 'w', leaseMs: LEASE_MS })!.id, 'did a');
    store.cancel(c.id);
    expect(store.listActive().map((task) => task.title)).toEqual(['b', 'x']);
    expect(store.listActive('default').map((task) => task.title)).toEqual(['b']);
    expect(store.listAll({ queue: 'default' }).map((task) => [task.title, task.status])).toEqual([
      ['a', 'completed'],
      ['b', 'pending'],
      ['c', 'cancelled'],
    ]);
    expect(store.listAll({ status: ['completed', 'cancelled'] }).map((task) => task.title)).toEqual([
      'a',
      'c',
    ]);
    expect(store.get('task_missing')).toBeUndefined();
  });

  it('keeps tasks of a session and tasks added outside one apart', async () => {
    const { db, store } = await setup();
    const sessionId = session(db);
    store.add({ title: 'in session', sessionId });
    store.add({ title: 'queued from the CLI' });
    expect(store.listAll({ sessionId }).map((task) => task.title)).toEqual(['in session']);
    expect(() => store.add({ title: 'ghost', sessionId: 'ses_nope' })).toThrow(/FOREIGN KEY/);
  });

  it('runs one task at a time per queue, in sequence order, counting attempts', async () => {
    const { store } = await setup();
    const first = store.add({ title: 'first' });
    const second = store.add({ title: 'second' });
    const elsewhere = store.add({ title: 'elsewhere', queue: 'other' });

    const claimed = store.claimNext({ owner: 'w1', leaseMs: LEASE_MS });
    expect(claimed).toMatchObject({ id: first.id, status: 'in_progress', attempts: 1, leaseOwner: 'w1' });
    expect(claimed?.leaseExpiresAt).toBe(1_000_000 + LEASE_MS);
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();
    expect(store.claimNext({ queue: 'other', owner: 'w2', leaseMs: LEASE_MS })?.id).toBe(elsewhere.id);

    store.complete(first.id, 'ok', { owner: 'w1' });
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })?.id).toBe(second.id);
    store.fail(second.id, 'broke', { owner: 'w2' });
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();

    store.resetToPending(second.id);
    const retried = store.claimNext({ owner: 'w3', leaseMs: LEASE_MS });
    expect(retried).toMatchObject({ id: second.id, attempts: 2, failReason: null });
  });

  it('records results and reasons and clears the lease when a task ends', async () => {
    const { store } = await setup();
    const done = store.add({ title: 'done' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    expect(store.complete(done.id, 'wrote the file')).toMatchObject({
      status: 'completed',
      resultSummary: 'wrote the file',
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    const broken = store.add({ title: 'broken' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    expect(store.fail(broken.id, 'tests fail')).toMatchObject({ status: 'failed', failReason: 'tests fail' });
    const waiting = store.add({ title: 'waiting' });
    expect(store.block(waiting.id, 'needs an API key')).toMatchObject({
      status: 'blocked',
      failReason: 'needs an API key',
    });
    expect(store.resetToPending(waiting.id)).toMatchObject({ status: 'pending', failReason: null });
  });

  it('refuses illegal transitions and unknown ids with the id and the current status', async () => {
    const { store } = await setup();
    const task = store.add({ title: 'a' });
    const refusal = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        expect(error).toBeInstanceOf(TaskStoreError);
        const { message, id, status } = error as TaskStoreError;
        return { message, id, status };
      }
      throw new Error('expected a TaskStoreError');
    };

    expect(refusal(() => store.complete(task.id, 'too early'))).toEqual({
      message: `Cannot complete task ${task.id}: it is pending (allowed from in_progress).`,
      id: task.id,
      status: 'pending',
    });
    expect(refusal(() => store.fail(task.id, 'x')).status).toBe('pending');
    expect(refusal(() => store.resetToPending(task.id)).status).toBe('pending');

    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    expect(refusal(() => store.delete(task.id))).toEqual({
      message: `Cannot delete task ${task.id}: it is in_progress; cancel it first.`,
      id: task.id,
      status: 'in_progress',
    });
    expect(refusal(() => store.start(task.id)).status).toBe('in_progress');
    store.complete(task.id, 'done');
    expect(refusal(() => store.cancel(task.id)).status).toBe('completed');
    expect(refusal(() => store.block(task.id, 'x')).status).toBe('completed');
    expect(refusal(() => store.resetToPending(task.id)).status).toBe('completed');
    expect(store.get(task.id)?.status).toBe('completed');

    expect(refusal(() => store.complete('task_nope', 'x'))).toEqual({
      message: 'There is no task with the id task_nope.',
      id: 'task_nope',
      status: undefined,
    });
    expect(refusal(() => store.delete('task_nope')).id).toBe('task_nope');
    expect(refusal(() => store.add({ title: 'b', dependsOn: ['task_nope'] })).message).toBe(
      'Cannot add task "b": it depends on task_nope, which does not exist.',
    );
  });

  it('cancels and deletes, removing dependency rows both ways', async () => {
    const { store } = await setup();
    const base = store.add({ title: 'base' });
    const middle = store.add({ title: 'middle', dependsOn: [base.id] });
    const top = store.add({ title: 'top', dependsOn: [middle.id] });
    expect(store.dependencies(top.id)).toEqual([middle.id]);

    expect(store.cancel(base.id).status).toBe('cancelled');
    expect(store.delete(middle.id).id).toBe(middle.id);
    expect(store.get(middle.id)).toBeUndefined();
    expect(store.dependencies(top.id)).toEqual([]);
    // With its only dependency gone, top is free to run.
    expect(store.claimNext({ owner: 'w', leaseMs: LEASE_MS })?.id).toBe(top.id);
  });

  it('hands out only tasks whose dependencies are completed, skipping the others', async () => {
    const { store } = await setup();
    const build = store.add({ title: 'build' });
    const test = store.add({ title: 'test', dependsOn: [build.id] });
    const docs = store.add({ title: 'docs' });
    const release = store.add({ title: 'release', dependsOn: [test.id, docs.id] });

    const order: string[] = [];
    for (;;) {
      const task = store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      if (task === undefined) break;
      order.push(task.title);
      if (task.id === docs.id) {
        // While docs runs, release waits on it even though test is done.
        expect(store.get(release.id)?.status).toBe('pending');
      }
      store.complete(task.id, 'ok');
    }
    expect(order).toEqual(['build', 'test', 'docs', 'release']);

    const failedBase = store.add({ title: 'fails' });
    const dependent = store.add({ title: 'never', dependsOn: [failedBase.id] });
    const independent = store.add({ title: 'independent' });
    store.fail(store.claimNext({ owner: 'w', leaseMs: LEASE_MS })!.id, 'no');
    expect(store.claimNext({ owner: 'w', leaseMs: LEASE_MS })?.id).toBe(independent.id);
    store.complete(independent.id, 'ok');
    expect(store.claimNext({ owner: 'w', leaseMs: LEASE_MS })).toBeUndefined();
    expect(store.get(dependent.id)?.status).toBe('pending');
  });

  it('starts a given task without a lease for a scheduler running tasks in parallel', async () => {
    const { store } = await setup();
    const a = store.add({ title: 'a', queue: 'plan:x' });
    const b = store.add({ title: 'b', queue: 'plan:x' });
    expect(store.start(a.id)).toMatchObject({ status: 'in_progress', attempts: 1, leaseOwner: null });
    expect(store.start(b.id, { owner: 'sched', leaseMs: 10 })).toMatchObject({
      status: 'in_progress',
      leaseOwner: 'sched',
      leaseExpiresAt: 1_000_010,
    });
    expect(store.listActive('plan:x').every((task) => task.status === 'in_progress')).toBe(true);
  });
});

describe('TaskStore: leases', () => {
  it('returns a task whose lease expired to pending, and hands it out again', async () => {
    const { db, clock, store } = await setup();
    const other = new TaskStore(db, { now: () => clock.now });
    const task = store.add({ title: 'long' });
    store.add({ title: 'after' });
    store.claimNext({ owner: 'crashed', leaseMs: 1_000 });

    clock.now += 999;
    expect(store.releaseExpiredLeases()).toEqual([]);
    expect(other.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();

    clock.now += 1;
    const released = store.releaseExpiredLeases();
    expect(released.map((t) => [t.id, t.status, t.leaseOwner])).toEqual([[task.id, 'pending', null]]);
    const again = other.claimNext({ owner: 'w2', leaseMs: LEASE_MS });
    expect(again).toMatchObject({ id: task.id, attempts: 2, leaseOwner: 'w2' });
  });

  it('lets claimNext take over an expired task without a separate release', async () => {
    const { clock, store } = await setup();
    const task = store.add({ title: 'interrupted' });
    store.add({ title: 'next' });
    store.claimNext({ owner: 'crashed', leaseMs: 1_000 });
    clock.now += 1_000;
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toMatchObject({
      id: task.id,
      leaseOwner: 'w2',
    });
  });

  it('renews a live lease, and reports a lost one', async () => {
    const { clock, store } = await setup();
    const task = store.add({ title: 'a' });
    store.claimNext({ owner: 'w1', leaseMs: 1_000 });

    clock.now += 900;
    expect(store.renewLease(task.id, 'w1', 1_000)).toBe(true);
    expect(store.get(task.id)?.leaseExpiresAt).toBe(clock.now + 1_000);
    clock.now += 900;
    expect(store.releaseExpiredLeases()).toEqual([]);
    expect(store.renewLease(task.id, 'someone-else', 1_000)).toBe(false);

    clock.now += 100;
    expect(store.renewLease(task.id, 'w1', 1_000)).toBe(false);
  });

  it('refuses completion by a worker that lost its lease, and accepts it from the new holder', async () => {
    const { clock, store } = await setup();
    const task = store.add({ title: 'a' });
    store.claimNext({ owner: 'slow', leaseMs: 1_000 });
    clock.now += 1_000;
    expect(() => store.complete(task.id, 'late', { owner: 'slow' })).toThrow(
      `Cannot complete task ${task.id}: the worker slow no longer holds its lease (held by slow); another worker may have taken it.`,
    );
    store.claimNext({ owner: 'fast', leaseMs: LEASE_MS });
    expect(() => store.complete(task.id, 'late', { owner: 'slow' })).toThrow(
      /no longer holds its lease \(held by fast\)/,
    );
    expect(() => store.fail(task.id, 'late', { owner: 'slow' })).toThrow(TaskStoreError);
    expect(store.complete(task.id, 'on time', { owner: 'fast' })).toMatchObject({
      status: 'completed',
      resultSummary: 'on time',
      attempts: 2,
    });
  });
});

describe('TaskStore: plans', () => {
  it('stores a plan and its tasks in one go, keys mapped to dependency rows', async () => {
    const { db, store } = await setup();
    const sessionId = session(db);
    const { plan, tasks } = store.createPlan({
      sessionId,
      runId: 'run_1',
      tasks: [
        { key: 't1', title: 'scaffold', description: 'npm init', dependsOn: [] },
        {
          key: 't3',
          title: 'page',
          description: 'index.html',
          dependsOn: ['t2', 't1'],
          check: 'test -f index.html',
        },
        { key: 't2', title: 'main', description: 'src/index.ts', dependsOn: ['t1'] },
      ],
    });
    expect(plan).toMatchObject({ sessionId, runId: 'run_1', status: 'proposed', feedback: null });
    expect(tasks.map((task) => [task.key, task.sequence, task.queue, task.dependsOn])).toEqual([
      ['t1', 1, planQueue(plan.id), []],
      ['t3', 2, planQueue(plan.id), ['t2', 't1']],
      ['t2', 3, planQueue(plan.id), ['t1']],
    ]);
    expect(tasks[1]?.checkCommand).toBe('test -f index.html');

    const read = store.planTasks(plan.id);
    expect(read.map((task) => [task.key, [...task.dependsOn].sort()])).toEqual([
      ['t1', []],
      ['t3', ['t1', 't2']],
      ['t2', ['t1']],
    ]);
    // The dependencies hold in the queue: t3 (listed second) runs last.
    const order: (string | null)[] = [];
    for (;;) {
      const task = store.claimNext({ queue: planQueue(plan.id), owner: 'w', leaseMs: LEASE_MS });
      if (task === undefined) break;
      order.push(task.key);
      store.complete(task.id, 'ok');
    }
    expect(order).toEqual(['t1', 't2', 't3']);
    expect(store.listActive()).toEqual([]);
  });

  it('writes nothing for a plan with an unknown or duplicate key', async () => {
    const { db, store } = await setup();
    const sessionId = session(db);
    expect(() =>
      store.createPlan({
        sessionId,
        runId: 'r',
        tasks: [{ key: 't1', title: 'a', description: '', dependsOn: ['t9'] }],
      }),
    ).toThrow('Task t1 of the plan depends on t9, which is not in the plan.');
    expect(() =>
      store.createPlan({
        sessionId,
        runId: 'r',
        tasks: [
          { key: 't1', title: 'a', description: '', dependsOn: [] },
          { key: 't1', title: 'b', description: '', dependsOn: [] },
        ],
      }),
    ).toThrow('The plan has two tasks with the key t1.');
    // A failure inside the transaction (unknown session) leaves no plan and no task behind.
    expect(() =>
      store.createPlan({
        sessionId: 'ses_nope',
        runId: 'r',
        tasks: [{ key: 't1', title: 'a', description: '', dependsOn: [] }],
      }),
    ).toThrow(/FOREIGN KEY/);
    expect(store.listAll()).toEqual([]);
    expect(db.sqlite.prepare('SELECT count(*) AS n FROM plans').get()).toEqual({ n: 0 });
  });

  it('moves a plan through its statuses and refuses the rest', async () => {
    const { db, store } = await setup();
    const sessionId = session(db);
    const first = store.createPlan({ sessionId, runId: 'r', tasks: [] }).plan;
    expect(store.setPlanStatus(first.id, 'rejected', 'split t2')).toMatchObject({
      status: 'rejected',
      feedback: 'split t2',
    });
    expect(() => store.setPlanStatus(first.id, 'approved')).toThrow(
      `Cannot mark plan ${first.id} approved: it is rejected.`,
    );
    const second = store.createPlan({ sessionId, runId: 'r', tasks: [] }).plan;
    expect(store.setPlanStatus(second.id, 'approved').status).toBe('approved');
    expect(store.setPlanStatus(second.id, 'completed').status).toBe('completed');
    expect(store.getPlan(second.id)?.status).toBe('completed');
    expect(() => store.setPlanStatus('plan_nope', 'approved')).toThrow(
      'There is no plan with the id plan_nope.',
    );
  });
});
