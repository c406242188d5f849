import type { Task } from '../../store/rows.js';

/** What a worker says, and the reason its run stops with, when its task's lease was lost. */
export interface LeaseLostNotice {
  notice: string;
  stopReason: string;
}

/**
 * Says what happened to a lease a worker lost (not by cancelling), from the task as the store has
 * it now. Only a task held by another worker was taken over; a task this very worker id claimed
 * again under a new attempt, or one put back in the queue, had its lease run out while the worker
 * could not renew it: the database restarted or the connection was lost (or the process was
 * paused) for longer than the lease.
 */
export function leaseLostNotice(options: {
  title: string;
  owner: string;
  now: Pick<Task, 'status' | 'leaseOwner'> | undefined;
  leaseMs: number;
}): LeaseLostNotice {
  const { title, owner, now } = options;
  const seconds = options.leaseMs / 1000;
  const holder = now?.status === 'in_progress' ? now.leaseOwner : null;
  if (holder !== null && holder !== owner)
    return {
      notice: `■ another worker took over the task "${title}" (this process was paused for longer than its ${seconds}-s lease); stopping it here so that it does not run twice`,
      stopReason: 'another worker took the task over',
    };
  const after =
    holder === owner ? 'and it was claimed again under a new attempt' : 'and it went back to the queue';
  return {
    notice: `■ the lease on the task "${title}" ran out while this worker could not renew it (the database restarted or the connection was lost for longer than the ${seconds}-s lease), ${after}; stopping this run here so that it does not run twice`,
    stopReason: 'the lease ran out while the database could not be reached',
  };
}
