import type { TaskQueue } from '../../store/ports.js';
import { endGitLeftBy, isDeadLocalWorker, localWorkerPid } from '../setup/worker-identity.js';

/**
 * Puts back in the queue the in-progress tasks of workers of this machine whose process is gone
 * (killed, crashed), without waiting for their leases to expire, and those whose leases expired.
 * The git commands a dead worker left running end first (endGitLeftBy): its task is taken up in
 * the same clone at once. Returns how many went back.
 */
export async function releaseDeadWorkers(tasks: TaskQueue, queue: string): Promise<number> {
  let released = (await tasks.releaseExpiredLeases()).length;
  for (const task of await tasks.listActive(queue)) {
    if (task.status === 'in_progress' && task.leaseOwner !== null && isDeadLocalWorker(task.leaseOwner)) {
      const pid = localWorkerPid(task.leaseOwner);
      if (pid !== undefined) await endGitLeftBy(pid);
      await tasks.resetToPending(task.id);
      released += 1;
    }
  }
  return released;
}
