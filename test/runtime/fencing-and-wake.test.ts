import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGoalTask, closeGoalTaskAndClaimNext } from '../../src/runtime/worker/close-goal-task.js';
import { watchQueue } from '../../src/runtime/worker/queue-wake.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { TaskStoreError } from '../../src/store/store-errors.js';

const LEASE_MS = 30_000;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two connections to one SQLite file (two processes' worth), with a clock the test moves. */
async function twoStores(): Promise<{ first: Store; second: Store; clock: { now: number } }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-fence-'));
  const clock = { now: 1_000_000 };
  const file = path.join(folder, 'taskweave.db');
  const first = openSqliteStore({ path: file, create: true, now: () => clock.now });
  const second = openSqliteStore({ path: file, create: true, now: () => clock.now });
  cleanups.push(async () => {
    await first.close();
    await second.close();
    await rm(folder, { recursive: true, force: true });
  });
  return { first, second, clock };
}

describe('closing a goal task carries the worker fencing token', () => {
  it('a worker that stalled past its lease cannot complete, fail or block the task another claim took', async () => {
    const { first, clock } = await twoStores();
    const task = await first.tasks.add({ title: 'goal' });
    const stalled = await first.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    clock.now += LEASE_MS + 1;
    // The same worker id (a restarted process on the same machine) claims it again.
    const fresh = await first.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
    expect(fresh?.attempts).toBe(2);
    const handOff = { id: task.id, owner: 'w', queue: 'default', leaseMs: LEASE_MS };
    for (const status of ['completed', 'failed', 'needs_input'] as const) {
      await expect(
        closeGoalTask(first.tasks, handOff, { status, attempt: stalled!.attempts, reason: 'stale' }),
      ).rejects.toThrow(TaskStoreError);
    }
    await expect(
      closeGoalTaskAndClaimNext(first.tasks, handOff, {
        status: 'completed',
        attempt: 1,
        finalAnswer: 'stale',
      }),
    ).rejects.toThrow(/attempt 1 is over/);
    expect(await first.tasks.get(task.id)).toMatchObject({
      status: 'in_progress',
      attempts: 2,
      failReason: null,
    });
    await closeGoalTask(first.tasks, handOff, { status: 'completed', attempt: 2, finalAnswer: 'done' });
    expect(await first.tasks.get(task.id)).toMatchObject({ status: 'completed', resultSummary: 'done' });
  });
});

describe('a waiting worker is woken by the store', () => {
  it('at once when its queue gets a task in this process, not by a task of another queue', async () => {
    const { first } = await twoStores();
    const wake = await watchQueue(first, 'default');
    cleanups.push(() => wake.close());
    const started = Date.now();
    const woken = wake.wait(10_000);
    await first.tasks.add({ title: 'other', queue: 'elsewhere' });
    await first.tasks.add({ title: 'mine' });
    await woken;
    expect(Date.now() - started).toBeLessThan(1_000);
    // Nothing new since: the next wait lasts until its timeout.
    const quiet = Date.now();
    await wake.wait(200);
    expect(Date.now() - quiet).toBeGreaterThanOrEqual(190);
  });

  it('when another connection adds a task (SQLite notices it by its poll)', async () => {
    const { first, second } = await twoStores();
    const wake = await watchQueue(first, 'default');
    cleanups.push(() => wake.close());
    const started = Date.now();
    const woken = wake.wait(10_000);
    await second.tasks.add({ title: 'from another process' });
    await woken;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
