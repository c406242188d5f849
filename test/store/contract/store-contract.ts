import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src/events/registry.js';
import type { UnsequencedEvent } from '../../../src/store/event-log.js';
import type { Store } from '../../../src/store/ports.js';
import { SessionStoreError, TaskStoreError } from '../../../src/store/store-errors.js';
import type { ContractBackend, ContractDatabase } from './backends.js';

/*
 * The store contract: what every implementation of the ports (SQLite, PostgreSQL in process,
 * a PostgreSQL server) does, in the same words. Each backend's test file runs it.
 */

const LEASE_MS = 30_000;

/** A clock the test moves. */
function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

function reason(sessionId: string, step: number, runId = 'run_a'): UnsequencedEvent {
  return {
    type: 'agent_update',
    update_type: 'agent_reason',
    step,
    content: `thinking ${step}`,
    session_id: sessionId,
    run_id: runId,
    ts: 1_000 + step,
  };
}

async function newSession(store: Store, title = 's'): Promise<string> {
  return (
    await store.sessions.createSession({ title, goal: `goal ${title}`, workspace: '/w', model: 'script:x' })
  ).id;
}

/** Waits until `check` holds, up to `ms`. */
async function eventually(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs the store contract against a backend. */
export function storeContract(backend: ContractBackend): void {
  let database: ContractDatabase | undefined;
  const open = async (now?: () => number) => {
    database ??= await backend.createDatabase();
    return database.open(now);
  };
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
  });

  describe(`store contract: ${backend.name}`, () => {
    it('adds, claims, completes and fails tasks in sequence, counting attempts', async () => {
      const time = clock();
      const store = await open(time.now);
      const a = await store.tasks.add({ title: 'a' });
      const b = await store.tasks.add({ title: 'b', description: 'second', checkCommand: 'npm test' });
      const other = await store.tasks.add({ title: 'x', queue: 'other' });
      expect([a.sequence, b.sequence, other.sequence]).toEqual([1, 2, 1]);
      expect(b).toMatchObject({
        status: 'pending',
        attempts: 0,
        description: 'second',
        checkCommand: 'npm test',
      });
      expect(await store.tasks.get(b.id)).toEqual(b);
      const claimed = await store.tasks.claimNext({ owner: 'w1', leaseMs: LEASE_MS });
      expect(claimed).toMatchObject({ id: a.id, status: 'in_progress', attempts: 1, leaseOwner: 'w1' });
      expect(claimed?.leaseExpiresAt).toBe(time.state.now + LEASE_MS);
      expect(await store.tasks.complete(a.id, 'did a', { owner: 'w1' })).toMatchObject({
        status: 'completed',
        resultSummary: 'did a',
        leaseOwner: null,
      });
      const second = await store.tasks.claimNext({ owner: 'w1', leaseMs: LEASE_MS });
      expect(second?.id).toBe(b.id);
      expect(await store.tasks.fail(b.id, 'broke', { owner: 'w1', attempt: 1 })).toMatchObject({
        status: 'failed',
        failReason: 'broke',
      });
      await expect(store.tasks.complete(b.id, 'again')).rejects.toThrow(
        /Cannot complete task .* it is failed/,
      );
      await store.tasks.resetToPending(b.id);
      expect(await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toMatchObject({
        id: b.id,
        attempts: 2,
      });
      expect(
        (await store.tasks.listAll({ queue: 'default' })).map((task) => [task.title, task.status]),
      ).toEqual([
        ['a', 'completed'],
        ['b', 'in_progress'],
      ]);
      expect((await store.tasks.listActive()).map((task) => task.title)).toEqual(['b', 'x']);
      await expect(store.tasks.get('task_missing')).resolves.toBeUndefined();
      await expect(store.tasks.complete('task_missing', 'x')).rejects.toThrow(TaskStoreError);
    });

    it('hands off in one step: completes the held task and claims the next of its queue', async () => {
      const store = await open(clock().now);
      const a = await store.tasks.add({ title: 'a' });
      const b = await store.tasks.add({ title: 'b' });
      await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      const handOff = await store.tasks.completeAndClaimNext({
        id: a.id,
        owner: 'w',
        leaseMs: LEASE_MS,
        resultSummary: 'ok',
        attempt: 1,
      });
      expect(handOff.completed).toMatchObject({ id: a.id, status: 'completed' });
      expect(handOff.next).toMatchObject({ id: b.id, status: 'in_progress', leaseOwner: 'w' });
      // A hand-off to the wrong queue changes nothing.
      await expect(
        store.tasks.failAndClaimNext({
          id: b.id,
          owner: 'w',
          leaseMs: LEASE_MS,
          reason: 'x',
          queue: 'other',
        }),
      ).rejects.toThrow(/hand off/);
      expect((await store.tasks.get(b.id))?.status).toBe('in_progress');
    });

    it('settles, cancels, deletes, attaches sessions and clears run settings as the queue defines', async () => {
      const store = await open(clock().now);
      const sessionId = await newSession(store);
      const a = await store.tasks.add({ title: 'a', runSettings: '{"maxSteps":3}' });
      const b = await store.tasks.add({ title: 'b', dependsOn: [a.id] });
      await expect(store.tasks.add({ title: 'c', dependsOn: ['task_missing'] })).rejects.toThrow(
        /does not exist/,
      );
      expect(await store.tasks.attachSession(a.id, sessionId)).toMatchObject({ sessionId });
      expect(await store.tasks.attachSession(a.id, sessionId)).toMatchObject({ sessionId });
      await expect(store.tasks.attachSession(a.id, 'ses_other')).rejects.toThrow(/already belongs/);
      expect(await store.tasks.clearRunSettings()).toBe(1);
      expect((await store.tasks.get(a.id))?.runSettings).toBeNull();
      // settle: a pending task is started (one attempt) and completed in one step.
      expect(await store.tasks.settle(a.id, 'complete', 'by hand')).toMatchObject({
        status: 'completed',
        attempts: 1,
        resultSummary: 'by hand',
      });
      await expect(store.tasks.settle(a.id, 'fail', 'again')).rejects.toThrow(TaskStoreError);
      await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      await expect(store.tasks.delete(b.id)).rejects.toThrow(/in_progress; cancel it first/);
      expect((await store.tasks.cancel(b.id)).status).toBe('cancelled');
      await expect(store.tasks.cancel(a.id)).rejects.toThrow(/it is completed/);
      expect((await store.tasks.delete(b.id)).id).toBe(b.id);
      expect(await store.tasks.get(b.id)).toBeUndefined();
      expect(await store.tasks.dependencies(b.id)).toEqual([]);
      // A rejected plan's tasks are cancelled with it.
      const { plan, tasks } = await store.plans.createPlan({
        sessionId,
        runId: 'r',
        tasks: [{ key: 't1', title: 'one', description: '', dependsOn: [] }],
      });
      expect(await store.plans.setPlanStatus(plan.id, 'rejected', 'not now')).toMatchObject({
        status: 'rejected',
        feedback: 'not now',
      });
      expect((await store.tasks.get(tasks[0]!.id))?.status).toBe('cancelled');
      await expect(store.plans.setPlanStatus('plan_missing', 'approved')).rejects.toThrow(
        /no plan with the id/,
      );
      expect(await store.plans.getPlan('plan_missing')).toBeUndefined();
    });

    it('stops a goal the user stopped: no worker claims it, resume puts it back, cancel and complete it', async () => {
      const store = await open(clock().now);
      const goal = await store.tasks.add({ title: 'goal' });
      const claimed = await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      expect(claimed?.id).toBe(goal.id);
      // Only its holder stops it while it runs (the fencing token, as for the other changes).
      await expect(store.tasks.stop(goal.id, 'stopped', { owner: 'other', attempt: 1 })).rejects.toThrow(
        /no longer holds its lease/,
      );
      expect(
        await store.tasks.stop(goal.id, 'stopped: by the user', { owner: 'w', attempt: 1 }),
      ).toMatchObject({
        status: 'stopped',
        failReason: 'stopped: by the user',
        leaseOwner: null,
        leaseExpiresAt: null,
      });
      expect((await store.tasks.listAll({ status: 'stopped' })).map((task) => task.id)).toEqual([goal.id]);
      // A stopped goal waits for resume: the queue is free and no worker claims it.
      expect(await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();
      const later = await store.tasks.add({ title: 'later' });
      expect((await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS }))?.id).toBe(later.id);
      await expect(store.tasks.stop(goal.id, 'again')).rejects.toThrow(/it is stopped/);
      // resume finishing it: back to pending, then completed.
      expect((await store.tasks.resetToPending(goal.id)).status).toBe('pending');
      expect((await store.tasks.settle(goal.id, 'complete', 'done')).status).toBe('completed');
      await expect(store.tasks.stop(goal.id, 'too late')).rejects.toThrow(/it is completed/);
      // A waiting goal stopped before it ran can be cancelled by hand.
      const waiting = await store.tasks.add({ title: 'waiting' });
      expect((await store.tasks.stop(waiting.id, 'stopped')).status).toBe('stopped');
      expect((await store.tasks.cancel(waiting.id)).status).toBe('cancelled');
    });

    it('runs one task at a time per queue (the serial rule), queues apart', async () => {
      const store = await open(clock().now);
      const a = await store.tasks.add({ title: 'a' });
      await store.tasks.add({ title: 'b' });
      const x = await store.tasks.add({ title: 'x', queue: 'q2' });
      expect((await store.tasks.claimNext({ owner: 'w1', leaseMs: LEASE_MS }))?.id).toBe(a.id);
      expect(await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();
      expect((await store.tasks.claimNext({ queue: 'q2', owner: 'w2', leaseMs: LEASE_MS }))?.id).toBe(x.id);
      expect(
        await store.tasks.startIfIdle((await store.tasks.listActive('default'))[1]!.id, {
          owner: 'w3',
          leaseMs: LEASE_MS,
        }),
      ).toBe(false);
      const added = await store.tasks.addAndStartIfIdle(
        { title: 'c', queue: 'q3' },
        { owner: 'w4', leaseMs: LEASE_MS },
      );
      expect(added.started).toBe(true);
      expect(
        (await store.tasks.addAndStartIfIdle({ title: 'd', queue: 'q3' }, { owner: 'w4', leaseMs: LEASE_MS }))
          .started,
      ).toBe(false);
    });

    it('hands out plan tasks only once their dependencies are completed or skipped', async () => {
      const store = await open(clock().now);
      const sessionId = await newSession(store);
      const { plan, tasks } = await store.plans.createPlan({
        sessionId,
        runId: 'run_1',
        tasks: [
          { key: 't1', title: 'one', description: '', dependsOn: [] },
          { key: 't2', title: 'two', description: '', dependsOn: ['t1'] },
          { key: 't3', title: 'three', description: '', dependsOn: [] },
        ],
      });
      expect(plan.status).toBe('proposed');
      expect(await store.plans.planTasks(plan.id)).toEqual(tasks);
      const queue = tasks[0]!.queue;
      expect(queue).toBe(`plan:${plan.id}`);
      expect((await store.plans.planTasks(plan.id)).map((task) => [task.key, task.dependsOn])).toEqual([
        ['t1', []],
        ['t2', ['t1']],
        ['t3', []],
      ]);
      expect(await store.tasks.dependencies(tasks[1]!.id)).toEqual([tasks[0]!.id]);
      const first = await store.tasks.claimNext({ queue, owner: 'w', leaseMs: LEASE_MS });
      expect(first?.key).toBe('t1');
      // t1 failed: t2 waits behind it, t3 runs.
      const afterFail = await store.tasks.failAndClaimNext({
        id: first!.id,
        owner: 'w',
        leaseMs: LEASE_MS,
        reason: 'x',
      });
      expect(afterFail.next?.key).toBe('t3');
      await store.tasks.complete(afterFail.next!.id, 'ok');
      expect(await store.tasks.claimNext({ queue, owner: 'w', leaseMs: LEASE_MS })).toBeUndefined();
      await store.tasks.skip(first!.id);
      expect((await store.tasks.claimNext({ queue, owner: 'w', leaseMs: LEASE_MS }))?.key).toBe('t2');
      await expect(
        store.plans.createPlan({
          sessionId,
          runId: 'r',
          tasks: [{ key: 'a', title: 'a', description: '', dependsOn: ['zz'] }],
        }),
      ).rejects.toThrow(/not in the plan/);
      // A graph with a cycle (plan/'s validation, the same on every backend) is refused whole.
      const plansBefore = (await store.tasks.listAll()).length;
      await expect(
        store.plans.createPlan({
          sessionId,
          runId: 'r',
          tasks: [
            { key: 'a', title: 'a', description: '', dependsOn: ['b'] },
            { key: 'b', title: 'b', description: '', dependsOn: ['a'] },
          ],
        }),
      ).rejects.toThrow(/Dependency cycle: a → b → a/);
      expect(await store.tasks.listAll()).toHaveLength(plansBefore);
      // What createPlan answered is what was stored.
      expect(await store.plans.getPlan(plan.id)).toEqual(plan);
      // A plan of a session that does not exist: refused whole, nothing of it left.
      const before = (await store.tasks.listAll()).length;
      await expect(
        store.plans.createPlan({
          sessionId: 'sess_missing',
          runId: 'r',
          tasks: [
            { key: 'a', title: 'a', description: '', dependsOn: [] },
            { key: 'b', title: 'b', description: '', dependsOn: ['a'] },
          ],
        }),
      ).rejects.toThrow();
      expect(await store.tasks.listAll()).toHaveLength(before);
      // A plan put in a queue that has tasks: numbered after them.
      const queued = await store.tasks.add({ title: 'before the plan', queue: 'shared' });
      const inQueue = await store.plans.createPlan({
        // Another session's (this one's last plan stays the first).
        sessionId: await newSession(store, 'shared'),
        runId: 'r',
        queue: 'shared',
        tasks: [
          { key: 'a', title: 'a', description: '', dependsOn: [] },
          { key: 'b', title: 'b', description: '', dependsOn: ['a'] },
        ],
      });
      expect(inQueue.tasks.map((task) => [task.key, task.queue, task.sequence - queued.sequence])).toEqual([
        ['a', 'shared', 1],
        ['b', 'shared', 2],
      ]);
      expect(await store.tasks.dependencies(inQueue.tasks[1]!.id)).toEqual([inQueue.tasks[0]!.id]);
      await store.plans.setPlanStatus(plan.id, 'approved');
      expect((await store.plans.unfinishedPlans(sessionId)).map((p) => p.id)).toEqual([plan.id]);
      await expect(store.plans.setPlanStatus(plan.id, 'rejected')).rejects.toThrow(/it is approved/);
      expect((await store.plans.lastPlan(sessionId))?.id).toBe(plan.id);
    });

    it('puts a task whose lease expired back in line: another worker takes it over', async () => {
      const time = clock();
      const store = await open(time.now);
      const a = await store.tasks.add({ title: 'a' });
      await store.tasks.claimNext({ owner: 'w1', leaseMs: LEASE_MS });
      time.state.now += LEASE_MS - 1;
      expect(await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toBeUndefined();
      expect(await store.tasks.renewLease(a.id, 'w1', LEASE_MS, 1)).toBe(true);
      time.state.now += LEASE_MS + 1;
      const taken = await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS });
      expect(taken).toMatchObject({ id: a.id, leaseOwner: 'w2', attempts: 2 });
      expect(await store.tasks.renewLease(a.id, 'w1', LEASE_MS)).toBe(false);
      await expect(store.tasks.complete(a.id, 'late', { owner: 'w1' })).rejects.toThrow(
        /no longer holds its lease/,
      );
      const b = await store.tasks.add({ title: 'b', queue: 'q' });
      await store.tasks.claimNext({ queue: 'q', owner: 'w3', leaseMs: LEASE_MS });
      time.state.now += 2 * LEASE_MS;
      expect((await store.tasks.releaseExpiredLeases()).map((task) => task.id).sort()).toEqual(
        [a.id, b.id].sort(),
      );
    });

    it('refuses every change of a stalled worker once its task was taken over (the fencing token)', async () => {
      const time = clock();
      const store = await open(time.now);
      const a = await store.tasks.add({ title: 'a' });
      // The same worker id claims twice (a restarted worker, or one stalled past its lease):
      // only the attempt tells the stalled claim from the new one.
      const stalled = await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      time.state.now += LEASE_MS + 1;
      const fresh = await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
      expect([stalled?.attempts, fresh?.attempts]).toEqual([1, 2]);
      const token = { owner: 'w', attempt: stalled!.attempts };
      await expect(store.tasks.complete(a.id, 'stale', token)).rejects.toThrow(/attempt 1 is over/);
      await expect(store.tasks.fail(a.id, 'stale', token)).rejects.toThrow(TaskStoreError);
      await expect(store.tasks.block(a.id, 'stale', token)).rejects.toThrow(TaskStoreError);
      await expect(store.tasks.resetToPending(a.id, token)).rejects.toThrow(TaskStoreError);
      expect(await store.tasks.renewLease(a.id, 'w', LEASE_MS, 1)).toBe(false);
      await expect(
        store.tasks.completeAndClaimNext({
          id: a.id,
          owner: 'w',
          leaseMs: LEASE_MS,
          resultSummary: 'stale',
          attempt: 1,
        }),
      ).rejects.toThrow(TaskStoreError);
      expect(await store.tasks.get(a.id)).toMatchObject({
        status: 'in_progress',
        attempts: 2,
        resultSummary: null,
      });
      // A takeover (a resumed session) counts an attempt too: the claim before it is over.
      const taken = await store.tasks.takeOver(a.id, { from: 'w', owner: 'resumer', leaseMs: LEASE_MS });
      expect(taken?.attempts).toBe(3);
      await expect(store.tasks.complete(a.id, 'stale', { attempt: 2 })).rejects.toThrow(/attempt 2 is over/);
      expect(await store.tasks.complete(a.id, 'done', { owner: 'resumer', attempt: 3 })).toMatchObject({
        status: 'completed',
        resultSummary: 'done',
      });
    });

    it('never hands one task to two claimers racing for it', async () => {
      const first = await open();
      const peers = [first, await open(), await open(), await open()];
      const queues = Array.from({ length: 12 }, (_, index) => `race-${index}`);
      for (const queue of queues) {
        await first.tasks.add({ title: `${queue} a`, queue });
        await first.tasks.add({ title: `${queue} b`, queue });
      }
      // Every peer tries every queue at once: the serial rule allows one claim per queue.
      const claims = await Promise.all(
        peers.flatMap((peer, index) =>
          queues.map((queue) => peer.tasks.claimNext({ queue, owner: `w${index}`, leaseMs: LEASE_MS })),
        ),
      );
      const claimed = claims.filter((task) => task !== undefined);
      expect(claimed.map((task) => task.title).sort()).toEqual(queues.map((queue) => `${queue} a`).sort());
      expect(new Set(claimed.map((task) => task.id)).size).toBe(queues.length);
      // Many adds at once from every peer: one sequence per queue, no position twice.
      await Promise.all(
        peers.flatMap((peer) => [1, 2, 3].map((n) => peer.tasks.add({ title: `n${n}`, queue: 'adds' }))),
      );
      expect((await first.tasks.listAll({ queue: 'adds' })).map((task) => task.sequence)).toEqual(
        Array.from({ length: 12 }, (_, index) => index + 1),
      );
    });

    it('drains one queue with racing workers: each task run once, one at a time, in order', async () => {
      const peers = [await open(), await open(), await open()];
      const total = 24;
      for (let index = 0; index < total; index += 1)
        await peers[0]!.tasks.add({ title: `t${index}`, queue: 'drain' });
      const done: string[] = [];
      let running = 0;
      let mostAtOnce = 0;
      const work = async (peer: Store, owner: string) => {
        for (let idle = 0; idle < 200 && done.length < total; ) {
          const task = await peer.tasks.claimNext({ queue: 'drain', owner, leaseMs: LEASE_MS });
          if (task === undefined) {
            idle += 1;
            await new Promise((resolve) => setTimeout(resolve, 2));
            continue;
          }
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await new Promise((resolve) => setTimeout(resolve, 1));
          running -= 1;
          done.push(task.title);
          await peer.tasks.complete(task.id, owner, { owner, attempt: task.attempts });
        }
      };
      await Promise.all(peers.map((peer, index) => work(peer, `w${index}`)));
      expect(done).toEqual(Array.from({ length: total }, (_, index) => `t${index}`));
      expect(mostAtOnce).toBe(1);
      const tasks = await peers[1]!.tasks.listAll({ queue: 'drain' });
      expect(tasks.every((task) => task.status === 'completed' && task.attempts === 1)).toBe(true);
    });

    it('keeps an image once by its hash, gives its bytes back whole and its records in the order asked', async () => {
      const store = await open();
      const bytes = new Uint8Array([137, 80, 78, 71, 0, 255, 1, 2, 3]);
      const first = { hash: 'a'.repeat(64), media_type: 'image/png' as const, width: 3, height: 2 };
      const second = { hash: 'b'.repeat(64), media_type: 'image/webp' as const, width: 1, height: 1 };
      expect(await store.images.put({ record: first, bytes })).toEqual(first);
      await store.images.put({ record: first, bytes });
      await store.images.put({ record: second, bytes: new Uint8Array([9]) });
      const stored = await store.images.get(first.hash);
      expect(stored?.record).toEqual(first);
      expect([...(stored?.bytes ?? [])]).toEqual([...bytes]);
      expect(await store.images.get('c'.repeat(64))).toBeUndefined();
      expect(await store.images.records([second.hash, 'c'.repeat(64), first.hash])).toEqual([second, first]);
    });

    it('keeps all of a transaction or nothing of it', async () => {
      const store = await open();
      const sessionId = await newSession(store);
      await expect(
        store.transaction(async () => {
          await store.tasks.add({ title: 'lost' });
          await store.sessions.appendEvent(reason(sessionId, 1));
          await store.sessions.appendMessage(sessionId, 'run_a', 'user', { text: 'lost' });
          throw new Error('the work failed');
        }),
      ).rejects.toThrow('the work failed');
      expect(await store.tasks.listAll()).toEqual([]);
      expect(await store.sessions.lastSeq(sessionId)).toBe(0);
      expect(await store.sessions.messages(sessionId)).toEqual([]);
      const kept = await store.transaction(async () => {
        const task = await store.tasks.add({ title: 'kept' });
        await store.sessions.appendEvent(reason(sessionId, 1));
        // A method's own failure inside is a savepoint: what came before it stays.
        await expect(store.tasks.complete('task_missing', 'x')).rejects.toThrow(TaskStoreError);
        await store.sessions.appendEvent(reason(sessionId, 2));
        return task.id;
      });
      expect((await store.tasks.get(kept))?.title).toBe('kept');
      expect((await store.sessions.events(sessionId)).map((event) => event.seq)).toEqual([1, 2]);
    });

    it('assigns each session its own seqs in order, with no gap, whoever appends', async () => {
      const first = await open();
      const second = await open();
      const sessionId = await newSession(first);
      const other = await newSession(first, 'other');
      const logged = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? first : second).sessions.appendEvent(reason(sessionId, index)),
        ),
      );
      expect(logged.map((event) => event.seq).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 10 }, (_, index) => index + 1),
      );
      expect((await second.sessions.appendEvent(reason(other, 0))).seq).toBe(1);
      const events: ServerEvent[] = await first.sessions.events(sessionId, { afterSeq: 7 });
      expect(events.map((event) => event.seq)).toEqual([8, 9, 10]);
      expect(events[0]).toMatchObject({ type: 'agent_update', session_id: sessionId, seq: 8 });
      expect(await first.sessions.lastSeq(sessionId)).toBe(10);
      await expect(first.sessions.appendEvent(reason('ses_missing', 1))).rejects.toThrow(SessionStoreError);
    });

    it('gives the next seq after a rolled-back write, and to many writers racing in transactions', async () => {
      const first = await open();
      const second = await open();
      const sessionId = await newSession(first);
      await expect(
        first.transaction(async () => {
          await first.sessions.appendEvent(reason(sessionId, 1));
          await first.sessions.appendEvent(reason(sessionId, 2));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await first.sessions.appendEvent(reason(sessionId, 3))).seq).toBe(1);
      // Groups of three at once, each in a transaction of its own (PostgreSQL runs them at the
      // same time on connections of the pool, SQLite one after the other).
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          first.transaction(async () => {
            for (let step = 0; step < 3; step++) await first.sessions.appendEvent(reason(sessionId, index));
          }),
        ),
      );
      const seqs = (await second.sessions.events(sessionId)).map((event) => event.seq);
      expect(seqs).toEqual(Array.from({ length: 37 }, (_, index) => index + 1));
      expect((await second.sessions.appendEvent(reason(sessionId, 4))).seq).toBe(38);
      expect((await first.sessions.appendEvent(reason(sessionId, 5))).seq).toBe(39);
    });

    it('logs a batch of events under consecutive seqs, all or none, around other writers', async () => {
      const first = await open();
      const second = await open();
      const sessionId = await newSession(first);
      const batch = (from: number, count: number) =>
        Array.from({ length: count }, (_, index) => reason(sessionId, from + index));
      expect((await first.sessions.appendEvents(batch(1, 3))).map((event) => event.seq)).toEqual([1, 2, 3]);
      // Another store wrote after this one's last write: the batch goes after it, whole.
      await second.sessions.appendEvent(reason(sessionId, 4));
      const later = await first.transaction(() => first.sessions.appendEvents(batch(5, 3)));
      expect(later.map((event) => event.seq)).toEqual([5, 6, 7]);
      // Batches and single events racing from both stores, each batch in a transaction.
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          index % 2 === 0
            ? first.transaction(() => first.sessions.appendEvents(batch(100 + index * 10, 3)))
            : second.sessions.appendEvent(reason(sessionId, 100 + index * 10)),
        ),
      );
      const logged = await second.sessions.events(sessionId);
      expect(logged.map((event) => event.seq)).toEqual(Array.from({ length: 23 }, (_, index) => index + 1));
      // Each batch's events lie one after another, in the order given.
      for (const index of [0, 2, 4, 6]) {
        const base = 100 + index * 10;
        const seqs = [0, 1, 2].map(
          (step) => logged.find((event) => 'step' in event && event.step === base + step)?.seq ?? Number.NaN,
        );
        expect(seqs.map((seq) => seq - seqs[0]!)).toEqual([0, 1, 2]);
      }
      // A batch of a missing session is refused whole, and of two sessions.
      await expect(
        first.sessions.appendEvents([reason('ses_missing', 1), reason('ses_missing', 2)]),
      ).rejects.toThrow(SessionStoreError);
      const other = await newSession(first, 'other');
      await expect(first.sessions.appendEvents([reason(sessionId, 300), reason(other, 301)])).rejects.toThrow(
        /one session/,
      );
      expect(await first.sessions.lastSeq(sessionId)).toBe(23);
      expect(await first.sessions.lastSeq(other)).toBe(0);
      expect(await first.sessions.appendEvents([])).toEqual([]);
    });

    it('gives racing writers (two stores, batches and single events, two sessions) the seqs of the database: in order, no gap', async () => {
      const first = await open();
      const second = await open();
      const sessions = [await newSession(first, 'a'), await newSession(second, 'b')];
      // Each writer logs to both sessions, one call after another: single events, batches of
      // two and three, some in a transaction of their own; the two writers run at the same time.
      // (Two SQLite connections of one process cannot interleave a transaction held across an
      // await: the other's write would wait for the lock on the one thread. There each batch
      // takes its own transaction inside appendEvents.)
      const ownTransactions = backend.name !== 'sqlite';
      const write = async (store: Store, writer: number) => {
        const returned: ServerEvent[] = [];
        for (let round = 0; round < 12; round++) {
          const sessionId = sessions[round % 2]!;
          const size = [1, 2, 3][round % 3]!;
          const events = Array.from({ length: size }, (_, index) =>
            reason(sessionId, writer * 1_000 + round * 10 + index, `run_${writer}`),
          );
          if (size === 1) returned.push(await store.sessions.appendEvent(events[0]!));
          else if (ownTransactions && round % 4 === 1)
            returned.push(...(await store.transaction(() => store.sessions.appendEvents(events))));
          else returned.push(...(await store.sessions.appendEvents(events)));
        }
        return returned;
      };
      const returned = (await Promise.all([write(first, 1), write(second, 2)])).flat();
      for (const sessionId of sessions) {
        const logged = await first.sessions.events(sessionId);
        // 2 writers × 6 rounds × 2 events on average per session.
        expect(logged.map((event) => event.seq)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
        expect(await second.sessions.lastSeq(sessionId)).toBe(24);
        // What each append returned is what was logged, seq for seq.
        const byKey = new Map(logged.map((event) => [event.seq, event]));
        for (const event of returned.filter((event) => event.session_id === sessionId)) {
          expect(byKey.get(event.seq)).toEqual(event);
        }
        // Each writer's events lie in the order it wrote them, a batch's one after another.
        for (const runId of ['run_1', 'run_2']) {
          const steps = logged.flatMap((event) =>
            event.run_id === runId && 'step' in event ? [event.step] : [],
          );
          expect(steps).toEqual([...steps].sort((a, b) => a - b));
        }
      }
    });

    it('keeps sessions, runs and the conversation of a session and of its tasks', async () => {
      const time = clock(5_000);
      const store = await open(time.now);
      const sessionId = await newSession(store, 'first');
      time.state.now += 10;
      const later = await newSession(store, 'second');
      time.state.now += 10;
      const task = await store.tasks.add({ title: 't', sessionId });
      await store.sessions.appendMessage(sessionId, 'run_1', 'user', { text: 'hello' });
      await store.sessions.appendMessage(sessionId, 'run_1', 'assistant', [{ type: 'text', text: 'on it' }], {
        taskId: task.id,
      });
      expect((await store.sessions.messages(sessionId)).map((message) => message.content)).toEqual([
        { text: 'hello' },
        [{ type: 'text', text: 'on it' }],
      ]);
      expect(
        (await store.sessions.messages(sessionId, { taskId: null })).map((message) => message.role),
      ).toEqual(['user']);
      expect(
        (await store.sessions.messages(sessionId, { taskId: task.id })).map((message) => message.role),
      ).toEqual(['assistant']);
      await expect(store.sessions.appendMessage('ses_missing', 'r', 'user', 'x')).rejects.toThrow(
        SessionStoreError,
      );
      await expect(
        store.sessions.appendMessage(sessionId, 'r', 'user', 'x', { taskId: 'task_missing' }),
      ).rejects.toThrow(/no task with the id task_missing/);
      // The message made the first session the most recently active.
      expect((await store.sessions.listSessions()).map((session) => session.id)).toEqual([sessionId, later]);
      const run = await store.sessions.createRun({ sessionId, goal: 'g', mode: 'simple', taskId: task.id });
      expect((await store.sessions.getSession(sessionId))?.status).toBe('running');
      expect((await store.sessions.latestSessionWithUnfinishedWork())?.id).toBe(sessionId);
      await store.sessions.finishRun({
        id: run.id,
        status: 'completed',
        steps: 3,
        inputTokens: 10,
        outputTokens: 5,
        cost: 0.5,
      });
      expect(await store.sessions.getRun(run.id)).toMatchObject({ status: 'completed', steps: 3, cost: 0.5 });
      expect(await store.sessions.latestSessionWithUnfinishedWork()).toBeUndefined();
      expect((await store.sessions.runs(sessionId)).map((r) => r.id)).toEqual([run.id]);
      expect(await store.sessions.resolveId(sessionId.slice(4, 10))).toBe(sessionId);
      expect(await store.tasks.resolveId(task.id.slice(0, 10))).toBe(task.id);
      await expect(store.tasks.resolveId('zzzzzzzz')).rejects.toThrow(/no task whose id starts with/);
    });

    it('removes a session that holds nothing but cancelled requests, and no other', async () => {
      const store = await open(clock().now);
      // A request cancelled before it ran: its session holds only the cancelled task.
      const empty = await newSession(store, 'empty');
      const cancelled = await store.tasks.add({ title: 'queued', sessionId: empty });
      await store.tasks.cancel(cancelled.id);
      expect(await store.sessions.removeIfEmpty(empty)).toBe(true);
      expect(await store.sessions.getSession(empty)).toBeUndefined();
      // The cancelled request stays in the to-do list, in no session.
      expect(await store.tasks.get(cancelled.id)).toMatchObject({ status: 'cancelled', sessionId: null });
      expect(await store.sessions.removeIfEmpty(empty)).toBe(false);
      // Each thing a session holds keeps it.
      const withEvent = await newSession(store, 'event');
      await store.sessions.appendEvent(reason(withEvent, 1));
      const withMessage = await newSession(store, 'message');
      await store.sessions.appendMessage(withMessage, 'run_1', 'user', 'hello');
      const withRun = await newSession(store, 'run');
      await store.sessions.createRun({ sessionId: withRun, goal: 'g', mode: 'simple' });
      const withGoal = await newSession(store, 'goal');
      const waiting = await store.tasks.add({ title: 'waiting', sessionId: withGoal });
      const withPlan = await newSession(store, 'plan');
      await store.plans.createPlan({ sessionId: withPlan, runId: 'r', tasks: [] });
      for (const kept of [withEvent, withMessage, withRun, withGoal, withPlan]) {
        expect(await store.sessions.removeIfEmpty(kept), kept).toBe(false);
        expect(await store.sessions.getSession(kept), kept).toBeDefined();
      }
      expect((await store.tasks.get(waiting.id))?.sessionId).toBe(withGoal);
      expect(await store.sessions.removeIfEmpty('ses_missing')).toBe(false);
    });

    it('records the commands running now and forgets those that ended', async () => {
      const time = clock();
      const store = await open(time.now);
      const sessionId = await newSession(store);
      const command = {
        sessionId,
        runId: 'r',
        callId: 'c1',
        taskId: null,
        command: 'sleep 9',
        pgid: 4242,
        ownerPid: 99,
      };
      await store.commands.started({ id: 'cmd_1', ...command });
      time.state.now += 1;
      await store.commands.started({ id: 'cmd_2', ...command, callId: 'c2', backgroundId: 'bg1' });
      expect((await store.commands.list()).map((row) => [row.id, row.backgroundId, row.startedAt])).toEqual([
        ['cmd_1', null, 1_000_000],
        ['cmd_2', 'bg1', 1_000_001],
      ]);
      await store.commands.started({ id: 'cmd_3', ...command, callId: 'c3', host: 'other-machine' });
      // Each row names its machine: a shared store holds every machine's commands.
      expect((await store.commands.list()).map((row) => row.host)).toEqual([
        hostname(),
        hostname(),
        'other-machine',
      ]);
      await store.commands.ended('cmd_1');
      expect((await store.commands.list()).map((row) => row.id)).toEqual(['cmd_2', 'cmd_3']);
    });

    it('keeps change records and the restores that undo them', async () => {
      const time = clock(10_000);
      const store = await open(time.now);
      const sessionId = await newSession(store);
      await store.sessions.appendMessage(sessionId, 'run_1', 'user', 'do it');
      const call = await store.sessions.appendMessage(sessionId, 'run_1', 'assistant', [
        { type: 'tool-call', toolCallId: 'call_7', toolName: 'write_file' },
      ]);
      await store.sessions.appendMessage(sessionId, 'run_1', 'tool', 'written');
      const change = {
        sessionId,
        runId: 'run_1',
        taskId: null,
        step: 1,
        callId: 'call_7',
        tool: 'write_file',
        beforeId: null,
        beforeMode: null,
        afterMode: 0o100644,
        blobStore: 'git' as const,
      };
      await store.changes.record([
        { ...change, path: 'a.txt', afterId: 'blob_a' },
        { ...change, path: 'b.txt', afterId: 'blob_b', blobStore: 'folder' },
      ]);
      const records = await store.changes.list(sessionId);
      expect(records.map((record) => [record.path, record.undoneBy])).toEqual([
        ['a.txt', null],
        ['b.txt', null],
      ]);
      expect(await store.changes.messageOfCall(sessionId, 'run_1', null, 'call_7')).toBe(call.id);
      const restore = await store.changes.beginRestore({
        sessionId,
        kind: 'rewind',
        mode: 'both',
        changeIds: records.map((record) => record.id),
      });
      expect(restore).toMatchObject({ status: 'pending', kind: 'rewind' });
      expect(await store.changes.rewindMessages(sessionId, call.id, null, restore.id)).toBe(2);
      expect((await store.sessions.messages(sessionId)).map((message) => message.content)).toEqual(['do it']);
      const done = await store.changes.finishRestore(restore.id, { files: 2 }, [records[0]!.id]);
      expect(done.status).toBe('done');
      expect((await store.changes.list(sessionId)).map((record) => record.undoneBy)).toEqual([
        restore.id,
        null,
      ]);
      expect(await store.changes.restoreMessages(restore.id)).toBe(2);
      expect((await store.changes.restores(sessionId)).map((row) => row.id)).toEqual([restore.id]);
      expect(await store.changes.sessionsWithChanges()).toEqual([
        { sessionId, updatedAt: 10_000, changes: 2 },
      ]);
      expect(await store.changes.contentIds()).toEqual({
        git: new Set(['blob_a']),
        folder: new Set(['blob_b']),
      });
      expect((await store.changes.prune(10_000)).sessions).toEqual([]);
      const pruned = await store.changes.prune(10_001);
      expect(pruned).toEqual({
        sessions: [sessionId],
        changes: 2,
        ids: { git: ['blob_a'], folder: ['blob_b'] },
      });
      expect(await store.changes.list(sessionId)).toEqual([]);
    });

    it('adds up the tokens and cost of runs per task and per day', async () => {
      const day = new Date(2026, 10, 20, 12, 0, 0).getTime();
      const time = clock(day);
      const store = await open(time.now);
      const sessionId = await newSession(store);
      const task = await store.tasks.add({ title: 'goal' });
      const finish = async (taskId: string | undefined, tokens: number, cost: number | null) => {
        const run = await store.sessions.createRun({
          sessionId,
          goal: 'g',
          mode: 'simple',
          ...(taskId ? { taskId } : {}),
        });
        await store.sessions.finishRun({
          id: run.id,
          status: 'completed',
          steps: 1,
          inputTokens: tokens,
          outputTokens: 1,
          cost,
        });
      };
      await finish(task.id, 100, 0.25);
      await finish(task.id, 50, null);
      time.state.now += 24 * 3600 * 1000;
      await finish(undefined, 10, 0.5);
      expect((await store.usage.byTask([task.id, 'task_none'])).get(task.id)).toEqual({
        runs: 2,
        inputTokens: 150,
        outputTokens: 2,
        cost: 0.25,
        unpricedRuns: 1,
      });
      expect(await store.usage.byDay(day - 1)).toEqual([
        { day: '2026-11-21', runs: 1, inputTokens: 10, outputTokens: 1, cost: 0.5, unpricedRuns: 0 },
        { day: '2026-11-20', runs: 2, inputTokens: 150, outputTokens: 2, cost: 0.25, unpricedRuns: 1 },
      ]);
      expect(await store.origin.get()).toBeUndefined();
      await store.origin.record({ workspace: '/w', host: 'h', user: 'u', createdAt: 1 });
      expect(await store.origin.record({ workspace: '/v', host: 'h', user: 'u', createdAt: 2 })).toEqual({
        id: 1,
        workspace: '/v',
        host: 'h',
        user: 'u',
        createdAt: 2,
      });
    });

    it('wakes a listener when another store adds work, and announces new event seqs', async () => {
      const worker = await open();
      const submitter = await open();
      const woken: (string | undefined)[] = [];
      const stop = await worker.signals.onTasks((queue) => woken.push(queue));
      await submitter.tasks.add({ title: 'wake up', queue: 'signals' });
      // PostgreSQL names the queue; SQLite sees another connection's commit as "some queue".
      await eventually(() => woken.includes('signals') || woken.includes(undefined));
      await stop();
      const seqs: [string, number][] = [];
      const stopEvents = await worker.signals.onEvents((sessionId, seq) => seqs.push([sessionId, seq]));
      const sessionId = await newSession(worker);
      await worker.sessions.appendEvent(reason(sessionId, 1));
      await worker.sessions.appendEvent(reason(sessionId, 2));
      await eventually(() => seqs.length >= 2);
      expect(seqs).toEqual([
        [sessionId, 1],
        [sessionId, 2],
      ]);
      await stopEvents();
    });

    it('announces the queue of every task another store adds, plans, ends or puts back (a waiting worker may claim)', async () => {
      const time = clock();
      const worker = await open(time.now);
      const other = await open(time.now);
      const woken: (string | undefined)[] = [];
      const stop = await worker.signals.onTasks((queue) => woken.push(queue));
      // Each change is heard before the next is made. PostgreSQL names the queue; SQLite sees
      // another connection's commit as "some queue".
      const heard = async (queue: string, change: () => Promise<unknown>) => {
        woken.length = 0;
        await change();
        await eventually(() => woken.includes(queue) || woken.includes(undefined));
      };
      const sessionId = await newSession(other);
      await heard('plain', () => other.tasks.add({ title: 'added', queue: 'plain' }));
      let planned: Awaited<ReturnType<Store['plans']['createPlan']>> | undefined;
      await heard('announce', async () => {
        planned = await other.plans.createPlan({
          sessionId,
          runId: 'run_a',
          queue: 'announce',
          tasks: [
            { key: 'a', title: 'a', description: 'a', dependsOn: [] },
            { key: 'b', title: 'b', description: 'b', dependsOn: [] },
          ],
        });
      });
      if (planned === undefined) throw new Error('no plan');
      const [a, b] = planned.tasks;
      await other.tasks.claimNext({ queue: 'announce', owner: 'w', leaseMs: LEASE_MS });
      await heard('announce', () => other.tasks.complete(a?.id ?? '', 'done', { owner: 'w' }));
      await other.tasks.claimNext({ queue: 'announce', owner: 'w', leaseMs: LEASE_MS });
      time.state.now += 2 * LEASE_MS;
      await heard('announce', () => other.tasks.releaseExpiredLeases());
      expect(await other.tasks.get(b?.id ?? '')).toMatchObject({ status: 'pending', leaseOwner: null });
      await other.tasks.start(b?.id ?? '');
      await heard('announce', () => other.tasks.fail(b?.id ?? '', 'broke'));
      await heard('announce', () => other.tasks.resetToPending(b?.id ?? ''));
      await stop();
    });

    it("announces the event seqs another store logs (a server streaming another process's session)", async () => {
      const server = await open();
      const writer = await open();
      const sessionId = await newSession(writer);
      await writer.sessions.appendEvent(reason(sessionId, 1));
      const seqs: [string, number][] = [];
      const stop = await server.signals.onEvents((id, seq) => seqs.push([id, seq]));
      for (const step of [2, 3, 4]) await writer.sessions.appendEvent(reason(sessionId, step));
      // SQLite may announce several commits at once, with the highest seq: the reader reads up to it.
      await eventually(() => seqs.some(([id, seq]) => id === sessionId && seq === 4));
      // Only what was logged after the listener started, in order.
      const announced = seqs.filter(([id]) => id === sessionId).map(([, seq]) => seq);
      expect(announced.every((seq) => seq >= 2)).toBe(true);
      expect(announced).toEqual([...announced].sort((a, b) => a - b));
      await stop();
    });

    it('stores the first answer to a request, refuses a second, and lets one worker take it', async () => {
      const time = clock();
      const store = await open(time.now);
      const sessionId = await newSession(store);
      const input = {
        id: 'req_1',
        sessionId,
        runId: 'run_a',
        kind: 'failure' as const,
        taskId: 't2',
        choices: ['retry', 'abort'],
      };
      const asked = await store.requests.ask(input);
      expect(asked).toMatchObject({
        id: 'req_1',
        kind: 'failure',
        taskId: 't2',
        choices: '["retry","abort"]',
        answer: null,
        askedAt: time.state.now,
      });
      // Asked again (a resumed plan proposes the same id): the row stays as it was.
      time.state.now += 5;
      expect(await store.requests.ask(input)).toEqual(asked);
      expect(await store.requests.take('req_1', 'w1')).toBeUndefined();
      const first = await store.requests.answer('req_1', { answer: '{"decision":"retry"}', by: 'serve a' });
      expect(first).toMatchObject({
        ok: true,
        request: { answer: '{"decision":"retry"}', answeredBy: 'serve a', answeredAt: time.state.now },
      });
      const second = await store.requests.answer('req_1', { answer: '{"decision":"abort"}', by: 'serve b' });
      expect(second).toMatchObject({
        ok: false,
        reason: 'answered',
        request: { answer: '{"decision":"retry"}', answeredBy: 'serve a' },
      });
      expect(await store.requests.answer('req_none', { answer: '{}', by: 'serve a' })).toEqual({
        ok: false,
        reason: 'unknown',
      });
      expect(await store.requests.take('req_1', 'w1')).toMatchObject({
        first: true,
        request: { takenBy: 'w1' },
      });
      expect(await store.requests.take('req_1', 'w2')).toMatchObject({
        first: false,
        request: { takenBy: 'w1' },
      });
      await store.requests.ask({ id: 'req_2', sessionId, runId: 'run_b', kind: 'input' });
      expect((await store.requests.list(sessionId)).map((request) => request.id)).toEqual(['req_1', 'req_2']);
      expect(await store.requests.get('req_2')).toMatchObject({ kind: 'input', taskId: null, choices: null });
    });

    it('reopens a blocked task only: one claimed meanwhile stays with its worker', async () => {
      const store = await open();
      const task = await store.tasks.add({ title: 'waits for an answer' });
      const claimed = await store.tasks.claimNext({ owner: 'w1', leaseMs: LEASE_MS });
      await expect(store.tasks.reopen(task.id)).rejects.toThrow(/Cannot reopen task .*: it is in_progress/);
      await store.tasks.block(task.id, 'needs input', { owner: 'w1', attempt: claimed?.attempts });
      expect(await store.tasks.reopen(task.id)).toMatchObject({
        status: 'pending',
        failReason: null,
        leaseOwner: null,
      });
      // A second reopen (two servers answering): refused, the task as the first left it.
      await expect(store.tasks.reopen(task.id)).rejects.toBeInstanceOf(TaskStoreError);
      expect(await store.tasks.claimNext({ owner: 'w2', leaseMs: LEASE_MS })).toMatchObject({
        id: task.id,
        attempts: 2,
      });
      await expect(store.tasks.reopen(task.id)).rejects.toBeInstanceOf(TaskStoreError);
      expect(await store.tasks.get(task.id)).toMatchObject({ status: 'in_progress', leaseOwner: 'w2' });
    });

    it('lets one of two stores answering at once win, and wakes a store waiting for the answer', async () => {
      const worker = await open();
      const serverA = await open();
      const serverB = await open();
      const sessionId = await newSession(worker);
      const heard: (string | undefined)[] = [];
      const stop = await worker.signals.onAnswers((requestId) => heard.push(requestId));
      for (let round = 0; round < 5; round += 1) {
        const id = `req_race_${round}`;
        await worker.requests.ask({ id, sessionId, runId: 'run_a', kind: 'input' });
        const outcomes = await Promise.all([
          serverA.requests.answer(id, { answer: '"from a"', by: 'a' }),
          serverB.requests.answer(id, { answer: '"from b"', by: 'b' }),
        ]);
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
        const lost = outcomes.find((outcome) => !outcome.ok);
        const won = outcomes.find((outcome) => outcome.ok);
        expect(lost).toMatchObject({ reason: 'answered' });
        expect((await worker.requests.get(id))?.answer).toBe(won?.ok ? won.request.answer : undefined);
      }
      // PostgreSQL names the request; SQLite sees another connection's commit as "some request".
      await eventually(() => heard.includes('req_race_4') || heard.includes(undefined));
      await stop();
    });
  });
}
