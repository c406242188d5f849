import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseDeadWorkers } from '../../../src/runtime/worker/release-dead-workers.js';
import type { Store } from '../../../src/store/ports.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const LEASE_MS = 60_000;
/** A worker of this machine whose process is gone (no pid this high runs). */
const DEAD = `worker:${hostname()}:999999999:dead`;
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two stores on one SQLite file (two processes of a workspace) and one task a dead worker holds. */
async function deadWorkersTask(): Promise<{ stores: [Store, Store]; taskId: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-release-'));
  const file = path.join(folder, 'taskweave.db');
  const first = openSqliteStore({ path: file, create: true });
  const second = openSqliteStore({ path: file });
  cleanups.push(async () => {
    await first.close();
    await second.close();
    await rm(folder, { recursive: true, force: true });
  });
  const task = await first.tasks.add({ title: 'goal' });
  await first.tasks.claimNext({ owner: DEAD, leaseMs: LEASE_MS });
  return { stores: [first, second], taskId: task.id };
}

describe('releasing the tasks of dead workers', () => {
  it('puts a dead worker’s task back once when two parties release at once (a server’s worker and a goal sent to it)', async () => {
    const { stores, taskId } = await deadWorkersTask();
    const released = await Promise.all([
      releaseDeadWorkers(stores[0].tasks, 'default'),
      releaseDeadWorkers(stores[1].tasks, 'default'),
      releaseDeadWorkers(stores[0].tasks, 'default'),
    ]);
    expect(released.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await stores[1].tasks.get(taskId)).toMatchObject({ status: 'pending', leaseOwner: null });
  });

  it('leaves a task that was released and claimed by a live worker after this party read it', async () => {
    const { stores, taskId } = await deadWorkersTask();
    const [first, second] = stores;
    // This party reads the dead worker's task; before it acts, another party releases it and a
    // live worker claims it (the second attempt).
    const racing = new Proxy(first.tasks, {
      get(target, name) {
        if (name === 'listActive')
          return async (queue: string) => {
            const read = await target.listActive(queue);
            expect(await releaseDeadWorkers(second.tasks, queue)).toBe(1);
            await second.tasks.claimNext({ owner: 'live', leaseMs: LEASE_MS });
            return read;
          };
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await releaseDeadWorkers(racing, 'default')).toBe(0);
    expect(await first.tasks.get(taskId)).toMatchObject({
      status: 'in_progress',
      leaseOwner: 'live',
      attempts: 2,
    });
  });
});
