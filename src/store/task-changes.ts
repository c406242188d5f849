import type { Task } from './rows.js';
import { TaskStoreError, unknownTask } from './store-errors.js';
import type { TaskStatus } from './vocabulary.js';

/*
 * The status changes of a task as every implementation of the queue defines them: where each may
 * start from, and why one was refused. The SQL that makes them is each dialect's own.
 */

/** A status change of one task. */
export type TaskChange =
  | 'start'
  | 'complete'
  | 'fail'
  | 'block'
  | 'skip'
  | 'cancel'
  | 'stop'
  | 'reset to pending'
  | 'reopen';

/** The statuses each change may start from. */
export const TASK_CHANGE_FROM: Record<TaskChange, readonly TaskStatus[]> = {
  start: ['pending'],
  complete: ['in_progress'],
  fail: ['in_progress'],
  block: ['pending', 'in_progress'],
  /** The user chose to skip a task of a plan (failed, or blocked behind one): its dependents run. */
  skip: ['pending', 'in_progress', 'blocked', 'failed'],
  cancel: ['pending', 'in_progress', 'blocked', 'failed', 'stopped'],
  /** The user stopped a goal (Ctrl-C, the stop button): it waits for `resume`, never for a worker. */
  stop: ['pending', 'in_progress'],
  'reset to pending': ['in_progress', 'failed', 'blocked', 'skipped', 'cancelled', 'stopped'],
  /** What a blocked task waited for came (its session's answer): it goes back in the queue. */
  reopen: ['blocked'],
};

/** The statuses of a dependency that let the tasks depending on it run: done, or skipped by the user. */
export const SATISFIED_DEPENDENCY_STATUSES: readonly TaskStatus[] = ['completed', 'skipped'];

/** When a lease taken or renewed `now` for `leaseMs` runs out; null for a task held with no lease. */
export function leaseExpiry(now: number, leaseMs: number | undefined): number | null {
  return leaseMs === undefined ? null : now + leaseMs;
}

/** The statuses a task does not leave by itself: nothing is left to do for it. */
export const FINISHED_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'skipped', 'cancelled'];

/**
 * The worker's proof that it still holds a task: a change carrying it is refused unless the task
 * is in progress under this owner's lease and, with `attempt` (the fencing token: the task's
 * attempt number the worker claimed), unless no other claim or takeover has happened since.
 */
export interface HolderCheck {
  /** The worker that must still hold the task. */
  owner?: string;
  /** The attempt the worker claimed (Task.attempts when claimed): the fencing token. */
  attempt?: number;
}

/**
 * Why a conditional change matched nothing, read from the task as it is now: unknown id, a
 * status the change does not start from, a lost lease, or a stale fencing token.
 */
export function changeRefusal(
  change: TaskChange,
  id: string,
  current: Task | undefined,
  check: HolderCheck,
): TaskStoreError {
  if (current === undefined) return unknownTask(id);
  const from = TASK_CHANGE_FROM[change];
  if (!from.includes(current.status)) {
    return new TaskStoreError(
      `Cannot ${change} task ${id}: it is ${current.status} (allowed from ${from.join(' or ')}).`,
      { id, status: current.status },
    );
  }
  if (check.attempt !== undefined && current.attempts !== check.attempt) {
    return new TaskStoreError(
      `Cannot ${change} task ${id}: attempt ${check.attempt} is over (the task is at attempt ${current.attempts}, held by ${current.leaseOwner ?? 'nobody'}); another worker took it over.`,
      { id, status: current.status },
    );
  }
  if (check.owner === undefined && check.attempt === undefined) {
    return new TaskStoreError(`Cannot ${change} task ${id}: it changed meanwhile (now ${current.status}).`, {
      id,
      status: current.status,
    });
  }
  return new TaskStoreError(
    `Cannot ${change} task ${id}: the worker ${check.owner ?? '(any)'} no longer holds its lease` +
      ` (held by ${current.leaseOwner ?? 'nobody'}); another worker may have taken it.`,
    { id, status: current.status },
  );
}
