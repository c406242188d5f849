import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { TaskweaveDb } from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { planQueue, TaskStore, TaskStoreError } from '../../src/store/sqlite/task-store.js';
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

    // Expired, but nobody has taken it: its worker still holds it (a paused process goes on).
    clock.now += 100;
    expect(store.renewLease(task.id, 'w1', 1_000)).toBe(true);
    clock.now += 1_000;
    expect(store.releaseExpiredLeases().map((released) => released.id)).toEqual([task.id]);
    expect(store.renewLease(task.id, 'w1', 1_000)).toBe(false);
  });

  it('refuses completion by a worker that lost its lease, and accepts it from the new holder', async () => {
    const { clock, store } = await setup();
    const task = store.add({ title: 'a' });
    store.claimNext({ owner: 'slow', leaseMs: 1_000 });
    clock.now += 1_000;
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

  it('cancels the tasks of a rejected plan with it: none stays pending', async () => {
    const { db, store } = await setup();
    const sessionId = session(db);
    const task = (key: string) => ({ key, title: key, description: '', dependsOn: [] });
    const rejected = store.createPlan({ sessionId, runId: 'r', tasks: [task('a'), task('b')] }).plan;
    const approved = store.createPlan({ sessionId, runId: 'r', tasks: [task('c')] }).plan;
    store.setPlanStatus(rejected.id, 'rejected', 'smaller');
    store.setPlanStatus(approved.id, 'approved');
    expect(store.planTasks(rejected.id).map((one) => one.status)).toEqual(['cancelled', 'cancelled']);
    expect(store.planTasks(approved.id).map((one) => one.status)).toEqual(['pending']);
  });
});

describe('TaskStore: hand-off from one task to the next', () => {
  it('completes the task and claims the next in sequence order, one in progress at a time', async () => {
    const { clock, store } = await setup();
    const [a, b, c] = ['a', 'b', 'c'].map((title) => store.add({ title }));
    const elsewhere = store.add({ title: 'elsewhere', queue: 'other' });
    let current = store.claimNext({ owner: 'w', leaseMs: LEASE_MS })!;
    expect(current.id).toBe(a!.id);

    clock.now += 10;
    const first = store.completeAndClaimNext({
      id: a!.id,
      resultSummary: 'did a',
      owner: 'w',
      leaseMs: LEASE_MS,
    });
    expect(first.completed).toMatchObject({
      id: a!.id,
      status: 'completed',
      resultSummary: 'did a',
      leaseOwner: null,
      updatedAt: clock.now,
    });
    expect(first.next).toMatchObject({
      id: b!.id,
      status: 'in_progress',
      attempts: 1,
      leaseOwner: 'w',
      leaseExpiresAt: clock.now + LEASE_MS,
    });
    // The next task is held: nobody else gets one from this queue meanwhile.
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();
    expect(store.listAll({ queue: 'default', status: 'in_progress' }).map((task) => task.id)).toEqual([
      b!.id,
    ]);

    current = first.next!;
    const titles: string[] = [];
    for (;;) {
      const { completed, next } = store.completeAndClaimNext({
        id: current.id,
        resultSummary: `did ${current.title}`,
        owner: 'w',
        queue: 'default',
        leaseMs: LEASE_MS,
      });
      titles.push(completed.title);
      if (next === undefined) break;
      current = next;
    }
    expect(titles).toEqual(['b', 'c']);
    expect(store.get(c!.id)?.status).toBe('completed');
    expect(store.listActive('default')).toEqual([]);
    // Another queue's task is never taken by a hand-off.
    expect(store.get(elsewhere.id)?.status).toBe('pending');
  });

  it.each([
    ['completeAndClaimNext', 'completed'],
    ['failAndClaimNext', 'failed'],
  ] as const)(
    '%s commits both changes at once: no other connection sees one without the other',
    async (method, ended) => {
      const { db, store } = await setup();
      const a = store.add({ title: 'a' });
      const b = store.add({ title: 'b' });
      store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      // A second connection reads what is committed at the moment the next task is claimed.
      const reader = new Database(db.path, { readonly: true });
      try {
        const statusOf = reader.prepare<[string], { status: string }>(
          'SELECT status FROM tasks WHERE id = ?',
        );
        const committedAtClaim: (string | undefined)[][] = [];
        db.sqlite.function('observe_claim', () => {
          committedAtClaim.push([statusOf.get(a.id)?.status, statusOf.get(b.id)?.status]);
          return null;
        });
        db.sqlite.exec(
          "CREATE TEMP TRIGGER observe_claim AFTER UPDATE OF status ON main.tasks WHEN new.status = 'in_progress' " +
            'BEGIN SELECT observe_claim(); END',
        );
        const handOff =
          method === 'completeAndClaimNext'
            ? store.completeAndClaimNext({ id: a.id, resultSummary: 'ok', owner: 'w', leaseMs: LEASE_MS })
            : store.failAndClaimNext({ id: a.id, reason: 'no', owner: 'w', leaseMs: LEASE_MS });
        expect(handOff.next?.id).toBe(b.id);
        expect(committedAtClaim).toEqual([['in_progress', 'pending']]);
        expect([statusOf.get(a.id)?.status, statusOf.get(b.id)?.status]).toEqual([ended, 'in_progress']);
      } finally {
        reader.close();
      }
    },
  );

  it('claims nothing when the queue is empty, and still completes the task', async () => {
    const { store } = await setup();
    const only = store.add({ title: 'only' });
    store.add({ title: 'other queue', queue: 'other' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    const handOff = store.completeAndClaimNext({
      id: only.id,
      resultSummary: 'ok',
      owner: 'w',
      leaseMs: LEASE_MS,
    });
    expect(handOff.completed.status).toBe('completed');
    expect(handOff.next).toBeUndefined();
    expect(store.listAll({ status: 'in_progress' })).toEqual([]);
  });

  it('fails the task and claims the next one, leaving its dependents pending', async () => {
    const { store } = await setup();
    const base = store.add({ title: 'base' });
    const dependent = store.add({ title: 'dependent', dependsOn: [base.id] });
    const independent = store.add({ title: 'independent' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });

    const { failed, next } = store.failAndClaimNext({
      id: base.id,
      reason: 'tests fail',
      owner: 'w',
      leaseMs: LEASE_MS,
    });
    expect(failed).toMatchObject({
      id: base.id,
      status: 'failed',
      failReason: 'tests fail',
      leaseOwner: null,
    });
    expect(next).toMatchObject({ id: independent.id, status: 'in_progress', leaseOwner: 'w' });
    const last = store.completeAndClaimNext({
      id: independent.id,
      resultSummary: 'ok',
      owner: 'w',
      leaseMs: LEASE_MS,
    });
    expect(last.next).toBeUndefined();
    expect(store.get(dependent.id)?.status).toBe('pending');
  });

  it('hands out only tasks whose dependencies are completed, in any queue', async () => {
    const { store } = await setup();
    const build = store.add({ title: 'build' });
    const test = store.add({ title: 'test', dependsOn: [build.id] });
    const docs = store.add({ title: 'docs' });
    store.add({ title: 'release', dependsOn: [test.id, docs.id] });
    const review = store.add({ title: 'review', queue: 'people' });
    const merge = store.add({ title: 'merge', dependsOn: [review.id] });

    const order: string[] = [];
    let current = store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    while (current !== undefined) {
      order.push(current.title);
      current = store.completeAndClaimNext({
        id: current.id,
        resultSummary: 'ok',
        owner: 'w',
        leaseMs: LEASE_MS,
      }).next;
    }
    // merge waits for a task of another queue, which nobody has done.
    expect(order).toEqual(['build', 'test', 'docs', 'release']);
    expect(store.get(merge.id)?.status).toBe('pending');
  });

  it('keeps the single-in-progress rule when another task of the queue is already running', async () => {
    const { clock, store } = await setup();
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b' });
    store.add({ title: 'c' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    // A scheduler started b by hand, with a short lease.
    store.start(b.id, { owner: 'sched', leaseMs: 1_000 });
    expect(
      store.completeAndClaimNext({ id: a.id, resultSummary: 'ok', owner: 'w', leaseMs: LEASE_MS }).next,
    ).toBeUndefined();
    expect(store.get(b.id)).toMatchObject({ status: 'in_progress', leaseOwner: 'sched' });

    // Once b's lease has expired, a hand-off puts it back in line and takes it over, first in sequence.
    const c = store.listAll({ status: 'pending' })[0]!;
    store.start(c.id, { owner: 'w', leaseMs: LEASE_MS * 2 });
    clock.now += LEASE_MS + 1;
    expect(store.get(b.id)?.status).toBe('in_progress');
    const handOff = store.completeAndClaimNext({
      id: c.id,
      resultSummary: 'ok',
      owner: 'w',
      leaseMs: LEASE_MS,
    });
    expect(handOff.next).toMatchObject({ id: b.id, leaseOwner: 'w', attempts: 2 });
  });

  it('changes nothing when the worker no longer holds its lease', async () => {
    const { clock, store } = await setup();
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b' });
    store.claimNext({ owner: 'w1', leaseMs: 1_000 });

    expect(() =>
      store.completeAndClaimNext({ id: a.id, resultSummary: 'not mine', owner: 'w2', leaseMs: LEASE_MS }),
    ).toThrow(
      `Cannot complete task ${a.id}: the worker w2 no longer holds its lease (held by w1); another worker may have taken it.`,
    );
    expect(() =>
      store.failAndClaimNext({ id: a.id, reason: 'not mine', owner: 'w2', leaseMs: LEASE_MS }),
    ).toThrow(TaskStoreError);
    expect(store.get(a.id)).toMatchObject({ status: 'in_progress', leaseOwner: 'w1', resultSummary: null });
    expect(store.get(b.id)?.status).toBe('pending');

    // The lease expires and another worker takes the task: the first one's hand-off is refused.
    clock.now += 1_000;
    expect(store.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toMatchObject({ id: a.id, attempts: 2 });
    expect(() =>
      store.completeAndClaimNext({ id: a.id, resultSummary: 'too late', owner: 'w1', leaseMs: LEASE_MS }),
    ).toThrow(/the worker w1 no longer holds its lease \(held by w2\)/);
    // The refused hand-off claimed nothing.
    expect(store.get(b.id)?.status).toBe('pending');
  });

  it('lets a worker whose lease expired while nobody took the task finish it (a paused process)', async () => {
    const { clock, store } = await setup();
    const a = store.add({ title: 'a' });
    const b = store.add({ title: 'b' });
    store.claimNext({ owner: 'w1', leaseMs: 1_000 });
    clock.now += 35_000;
    const { completed, next } = store.completeAndClaimNext({
      id: a.id,
      resultSummary: 'done after a pause',
      owner: 'w1',
      leaseMs: LEASE_MS,
    });
    expect(completed).toMatchObject({
      status: 'completed',
      resultSummary: 'done after a pause',
      attempts: 1,
    });
    expect(next).toMatchObject({ id: b.id, leaseOwner: 'w1' });
  });

  it('refuses a hand-off to another queue than the task is in, and rolls the completion back', async () => {
    const { store } = await setup();
    const a = store.add({ title: 'a' });
    store.add({ title: 'x', queue: 'other' });
    store.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    expect(() =>
      store.completeAndClaimNext({
        id: a.id,
        resultSummary: 'ok',
        owner: 'w',
        queue: 'other',
        leaseMs: LEASE_MS,
      }),
    ).toThrow(`Cannot hand off task ${a.id} to the queue other: the task is of the queue default.`);
    expect(store.get(a.id)).toMatchObject({ status: 'in_progress', resultSummary: null });
    expect(store.listAll({ queue: 'other' })[0]?.status).toBe('pending');
  });

  it('refuses a hand-off from a task that is not in progress, or unknown', async () => {
    const { store } = await setup();
    const a = store.add({ title: 'a' });
    store.add({ title: 'b' });
    expect(() =>
      store.completeAndClaimNext({ id: a.id, resultSummary: 'ok', owner: 'w', leaseMs: LEASE_MS }),
    ).toThrow(`Cannot complete task ${a.id}: it is pending (allowed from in_progress).`);
    expect(() =>
      store.failAndClaimNext({ id: 'task_nope', reason: 'x', owner: 'w', leaseMs: LEASE_MS }),
    ).toThrow('There is no task with the id task_nope.');
    expect(store.listAll({ status: 'in_progress' })).toEqual([]);
  });
});

describe('TaskStore: resuming plans', () => {
  it('lists approved plans with work left, newest first, of one session or of all', async () => {
    const { db, clock, store } = await setup();
    const sessionId = session(db);
    const otherSession = session(db);
    const plan = (owner: string, statuses: ('pending' | 'done' | 'cancel' | 'fail' | 'block')[]) => {
      clock.now += 10;
      const created = store.createPlan({
        sessionId: owner,
        runId: 'r',
        tasks: statuses.map((_, index) => ({
          key: `t${index}`,
          title: `t${index}`,
          description: '',
          dependsOn: [],
        })),
      });
      created.tasks.forEach((task, index) => {
        const status = statuses[index];
        if (status === 'done') store.complete(store.start(task.id).id, 'ok');
        if (status === 'cancel') store.cancel(task.id);
        if (status === 'fail') store.fail(store.start(task.id).id, 'broke');
        if (status === 'block') store.block(task.id, 'waits');
      });
      return created.plan;
    };
    const pending = plan(sessionId, ['done', 'pending']);
    const approved = (made: { id: string }) => store.setPlanStatus(made.id, 'approved');
    approved(pending);
    approved(plan(sessionId, ['done', 'cancel']));
    approved(plan(sessionId, []));
    plan(sessionId, ['pending']); // only proposed
    const rejected = plan(sessionId, ['pending']);
    store.setPlanStatus(rejected.id, 'rejected');
    const failed = plan(sessionId, ['done', 'fail']);
    approved(failed);
    const blocked = plan(otherSession, ['block']);
    approved(blocked);
    const finished = plan(sessionId, ['pending']);
    approved(finished);
    store.setPlanStatus(finished.id, 'aborted');

    expect(store.unfinishedPlans(sessionId).map((p) => p.id)).toEqual([failed.id, pending.id]);
    expect(store.unfinishedPlans().map((p) => p.id)).toEqual([blocked.id, failed.id, pending.id]);
    expect(store.unfinishedPlans(otherSession).map((p) => [p.id, p.status])).toEqual([
      [blocked.id, 'approved'],
    ]);
    expect(store.unfinishedPlans('ses_nope')).toEqual([]);
  });

  it("gives each plan task's state and dependency keys, as a resumed run rebuilds them", async () => {
    const { db, store } = await setup();
    const { plan } = store.createPlan({
      sessionId: session(db),
      runId: 'r',
      tasks: [
        {
          key: 't1',
          title: 'scaffold',
          description: 'npm init',
          dependsOn: [],
          check: 'test -f package.json',
        },
        { key: 't2', title: 'main', description: 'src/index.ts', dependsOn: ['t1'] },
        { key: 't3', title: 'page', description: 'index.html', dependsOn: ['t1', 't2'] },
      ],
    });
    store.setPlanStatus(plan.id, 'approved');
    const queue = planQueue(plan.id);
    const first = store.claimNext({ queue, owner: 'w', leaseMs: LEASE_MS })!;
    const second = store.completeAndClaimNext({
      id: first.id,
      resultSummary: 'created package.json',
      owner: 'w',
      leaseMs: LEASE_MS,
    }).next!;
    store.failAndClaimNext({ id: second.id, reason: 'tsc failed', owner: 'w', leaseMs: LEASE_MS });
    store.resetToPending(second.id);
    store.claimNext({ queue, owner: 'w', leaseMs: LEASE_MS });

    const resumed = store.planTasks(plan.id);
    expect(
      resumed.map(
        ({ key, status, attempts, resultSummary, failReason, checkCommand, dependsOn, leaseOwner }) => ({
          key,
          status,
          attempts,
          resultSummary,
          failReason,
          checkCommand,
          dependsOn: [...dependsOn].sort(),
          leaseOwner,
        }),
      ),
    ).toEqual([
      {
        key: 't1',
        status: 'completed',
        attempts: 1,
        resultSummary: 'created package.json',
        failReason: null,
        checkCommand: 'test -f package.json',
        dependsOn: [],
        leaseOwner: null,
      },
      {
        key: 't2',
        status: 'in_progress',
        attempts: 2,
        resultSummary: null,
        failReason: null,
        checkCommand: null,
        dependsOn: ['t1'],
        leaseOwner: 'w',
      },
      {
        key: 't3',
        status: 'pending',
        attempts: 0,
        resultSummary: null,
        failReason: null,
        checkCommand: null,
        dependsOn: ['t1', 't2'],
        leaseOwner: null,
      },
    ]);
    expect(store.unfinishedPlans().map((p) => p.id)).toEqual([plan.id]);
    expect(store.planTasks('plan_nope')).toEqual([]);
  });
});

describe('TaskStore.settle: finishing a task by hand', () => {
  it('starts a pending task and finishes it in one step, counting one attempt', async () => {
    const { store } = await setup();
    const done = store.add({ title: 'write docs' });
    const dropped = store.add({ title: 'port to Windows' });
    expect(store.settle(done.id, 'complete', 'docs written')).toMatchObject({
      status: 'completed',
      resultSummary: 'docs written',
      attempts: 1,
    });
    expect(store.settle(dropped.id, 'fail', 'no Windows machine')).toMatchObject({
      status: 'failed',
      failReason: 'no Windows machine',
    });
  });

  it('refuses a task that already ended, changing nothing', async () => {
    const { store } = await setup();
    const task = store.add({ title: 'x' });
    store.cancel(task.id);
    expect(() => store.settle(task.id, 'complete', 'done')).toThrow(TaskStoreError);
    expect(store.get(task.id)).toMatchObject({ status: 'cancelled', attempts: 0 });
  });
});
