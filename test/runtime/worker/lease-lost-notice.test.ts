import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskLease } from '../../../src/runtime/worker/lease.js';
import { leaseLostNotice } from '../../../src/runtime/worker/lease-lost-notice.js';
import { leaseTerms } from '../../../src/runtime/worker/lease-terms.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const LEASE_MS = 30_000;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A SQLite file with a clock the test moves, one task claimed by worker `w`, and w's lease on it. */
async function claimed(): Promise<{
  store: Store;
  clock: { now: number };
  lease: TaskLease;
  taskId: string;
}> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-lease-lost-'));
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
  const task = await store.tasks.add({ title: 'write notes.md' });
  await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS });
  const lease = await TaskLease.take({ tasks: store.tasks, terms: leaseTerms(LEASE_MS), task, owner: 'w' });
  return { store, clock, lease, taskId: task.id };
}

/** What worker `w` says once its check finds the lease lost. */
async function noticeAfterCheck(lease: TaskLease): Promise<string> {
  expect(await lease.check()).toBe('taken');
  return leaseLostNotice({ title: 'write notes.md', owner: 'w', now: lease.lastSeen, leaseMs: LEASE_MS })
    .notice;
}

describe('what a worker says when it lost its lease', () => {
  it('its own worker id claimed the task again after the lease ran out (the database was away): not "another worker"', async () => {
    const { store, clock, lease } = await claimed();
    // The database could not be reached to renew the lease (a PostgreSQL restart): it ran out,
    // and the same worker id claimed the task again under a new attempt.
    clock.now += LEASE_MS + 1;
    expect(await store.tasks.claimNext({ owner: 'w', leaseMs: LEASE_MS })).toMatchObject({ attempts: 2 });
    const notice = await noticeAfterCheck(lease);
    expect(notice).not.toMatch(/another worker/);
    expect(notice).not.toMatch(/paused/);
    expect(notice).toMatch(
      /the lease on the task "write notes\.md" ran out while this worker could not renew it \(the database restarted or the connection was lost for longer than the 30-s lease\), and it was claimed again under a new attempt/,
    );
  });

  it('the lease ran out and the task went back to the queue: said so', async () => {
    const { store, clock, lease } = await claimed();
    clock.now += LEASE_MS + 1;
    expect(await store.tasks.releaseExpiredLeases()).toHaveLength(1);
    const notice = await noticeAfterCheck(lease);
    expect(notice).not.toMatch(/another worker/);
    expect(notice).toMatch(/ran out while this worker could not renew it .* and it went back to the queue/);
  });

  it('another worker holds it now: that one took it over', async () => {
    const { store, lease, taskId } = await claimed();
    await store.tasks.takeOver(taskId, { from: 'w', owner: 'other', leaseMs: LEASE_MS });
    expect(await noticeAfterCheck(lease)).toMatch(/^■ another worker took over the task "write notes\.md"/);
  });
});
