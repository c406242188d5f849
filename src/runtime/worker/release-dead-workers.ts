import type { TaskQueue } from '../../store/ports.js';
import { TaskStoreError } from '../../store/store-errors.js';
import { endGitLeftBy, isDeadLocalWorker, localWorkerPid } from '../setup/worker-identity.js';

/**
 * Puts back in the queue the in-progress tasks of workers of this machine whose process is gone
 * (killed, crashed), without waiting for their leases to expire, and those whose leases expired.
 * The git commands a dead worker left running end first (endGitLeftBy): its task is taken up in
 * the same clone at once. Returns how many this call put back.
 *
 * Several parties release at once (a server's queue worker and a goal submitted to it, two
 * processes of one workspace): each puts a task back only as it read it, held by the dead worker
 * at that attempt, so the one that comes second finds it released (or claimed again) and leaves it.
 */
export async function releaseDeadWorkers(tasks: TaskQueue, queue: string): Promise<number> {
  let released = (await tasks.releaseExpiredLeases()).length;
  for (const task of await tasks.listActive(queue)) {
    if (task.status === 'in_progress' && task.leaseOwner !== null && isDeadLocalWorker(task.leaseOwner)) {
      const pid = localWorkerPid(task.leaseOwner);
      if (pid !== undefined) await endGitLeftBy(pid);
      try {
        await tasks.resetToPending(task.id, { owner: task.leaseOwner, attempt: task.attempts });
        released += 1;
      } catch (error) {
        // Another party released it first (or a live worker claimed it since): nothing left to do.
        if (!(error instanceof TaskStoreError && error.id === task.id)) throw error;
      }
    }
  }
  return released;
}
