import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LeaseState, TaskLease, watchLease } from '../../../src/runtime/worker/lease.js';
import { leaseTerms } from '../../../src/runtime/worker/lease-terms.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const LEASE_MS = 30_000;
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A SQLite file with a clock the test moves, and one task claimed by worker `w`. */
async function claimedTask(): Promise<{ store: Store; clock: { now: number }; taskId: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-lease-'));
  const clock = { now: 1_000_000 };
  const store = openSqliteStore({
    path: path.join(folder, 'taskweave.db'),
    create: true,
    now: () => clock.now,
  });
  cleanups.push(async () => {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });
  const task = await store.tasks.add({ title: 'goal' });
  await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
  return { store, clock, taskId: task.id };
}

/** Resolves with what watchLease reported when the lease was lost. */
function lost(lease: TaskLease): Promise<Exclude<LeaseState, 'held'>> {
  return new Promise((resolve) => {
    const stop = watchLease(lease, {
      intervalMs: 10,
      onLost: (state) => {
        stop();
        resolve(state);
      },
    });
    cleanups.push(stop);
  });
}

describe('a worker lease is a value port with the fencing token', () => {
  it('carries the attempt the store counted, and holds while the task is the worker’s', async () => {
    const { store, taskId } = await claimedTask();
    const lease = await TaskLease.take({
      tasks: store.tasks,
      terms: leaseTerms(LEASE_MS),
      task: { id: taskId },
      owner: 'w',
    });
    expect(lease.token).toBe(1);
    expect(await lease.stillHolds()).toBe(true);
    expect(await lease.check()).toBe('held');
  });

  it('has no token for a task the worker did not hold when it took the lease', async () => {
    const { store, taskId } = await claimedTask();
    const lease = await TaskLease.take({
      tasks: store.tasks,
      terms: leaseTerms(LEASE_MS),
      task: { id: taskId },
      owner: 'x',
    });
    expect(lease.token).toBeUndefined();
    expect(await lease.stillHolds()).toBe(false);
  });

  it('no longer holds once another worker took the task over, and the watch says it was taken', async () => {
    const { store, taskId } = await claimedTask();
    const lease = await TaskLease.take({
      tasks: store.tasks,
      terms: leaseTerms(LEASE_MS),
      task: { id: taskId },
      owner: 'w',
    });
    const verdict = lost(lease);
    await store.tasks.takeOver(taskId, { from: 'w', owner: 'other', leaseMs: LEASE_MS });
    expect(await verdict).toBe('taken');
    expect(await lease.stillHolds()).toBe(false);
  });

  it('no longer holds once the same worker id claimed the task again after its lease ran out (a new token)', async () => {
    const { store, clock, taskId } = await claimedTask();
    const lease = await TaskLease.take({
      tasks: store.tasks,
      terms: leaseTerms(LEASE_MS),
      task: { id: taskId },
      owner: 'w',
    });
    clock.now += LEASE_MS + 1;
    // A restarted process on the same machine, with the same worker id, claims it again.
    expect(await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS })).toMatchObject({ attempts: 2 });
    expect(await lease.stillHolds()).toBe(false);
    expect(await lease.check()).toBe('taken');
  });

  it('reports a cancelled task as cancelled, not taken', async () => {
    const { store, taskId } = await claimedTask();
    const lease = await TaskLease.take({
      tasks: store.tasks,
      terms: leaseTerms(LEASE_MS),
      task: { id: taskId },
      owner: 'w',
    });
    const verdict = lost(lease);
    await store.tasks.cancel(taskId);
    expect(await verdict).toBe('cancelled');
  });

  it('renews the lease when a renewal is due, under its token', async () => {
    const { store, clock, taskId } = await claimedTask();
    const terms = { ...leaseTerms(LEASE_MS), renewEveryMs: 0 };
    const lease = await TaskLease.take({ tasks: store.tasks, terms, task: { id: taskId }, owner: 'w' });
    clock.now += LEASE_MS / 2;
    expect(await lease.check()).toBe('held');
    expect((await store.tasks.get(taskId))?.leaseExpiresAt).toBe(clock.now + LEASE_MS);
  });
});
