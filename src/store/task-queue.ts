import type { Task } from './rows.js';
import type { HolderCheck } from './task-changes.js';
import type { TaskStatus } from './vocabulary.js';

/*
 * The persistent task queue and to-do list as a port: adding, claiming under leases, hand-off and
 * state changes. Each queue runs one task at a time; a lease that expires puts its task back in
 * line; the attempt a claim counts is the fencing token of its holder. SQLite (store/sqlite) and
 * PostgreSQL (store/postgres) implement it; the contract suite (test/store/contract) holds both to it.
 */

/** A task to add at the end of its queue. */
export interface AddTaskInput {
  title: string;
  description?: string;
  sessionId?: string;
  planId?: string;
  parentId?: string;
  /** The plan's own id for the task, unique within the plan. */
  key?: string;
  queue?: string;
  checkCommand?: string;
  /** Ids of tasks that must be completed before claimNext hands this one out. */
  dependsOn?: readonly string[];
  /** The settings the goal was submitted with, as JSON (the runtime reads them back). */
  runSettings?: string;
}

/** Which task a worker may claim, and its lease. */
export interface ClaimOptions {
  queue?: string;
  /** Who holds the lease: a worker id unique per process. */
  owner: string;
  leaseMs: number;
  /** Only tasks queued after this position are handed out (the work a foreign database came with is left). */
  afterSequence?: number;
}

/** The worker's current task, and how to take the next one once it has ended. */
export interface HandOffOptions {
  /** The task the worker holds. */
  id: string;
  /** The worker: it must still hold a live lease on the task, and gets the lease on the next. */
  owner: string;
  /** The task's own queue; when given and different, nothing changes and an error says so. */
  queue?: string;
  /** The next task's lease. */
  leaseMs: number;
  /** The next task only from those queued after this position (see ClaimOptions). */
  afterSequence?: number;
  /** The attempt the worker claimed (its fencing token); the change is refused once another claim or takeover counted one more. */
  attempt?: number;
}

/** A hand-off after the held task completed. */
export interface CompleteAndClaimInput extends HandOffOptions {
  resultSummary: string;
}

/** A hand-off after the held task failed. */
export interface FailAndClaimInput extends HandOffOptions {
  reason: string;
}

/** Who starts a task, and for how long. */
export interface StartOptions {
  owner?: string;
  /** Without it the task is held until it changes status: no lease, nothing expires. */
  leaseMs?: number;
}

/**
 * When given, the change is refused unless the task is in progress under this owner and, with
 * `attempt` (the fencing token), unless no other claim or takeover has happened since.
 */
export type OwnerCheck = HolderCheck;

/** Which tasks a listing returns. */
export interface TaskFilter {
  queue?: string;
  status?: TaskStatus | readonly TaskStatus[];
  sessionId?: string;
  planId?: string;
}

/** A lease to take or extend: who, and for how long. */
export interface Lease {
  owner: string;
  leaseMs: number;
}

/** The persistent task queue and to-do list: adding, claiming under leases, hand-off, state changes. */
export interface TaskQueue {
  /** Adds a task at the end of its queue. */
  add(input: AddTaskInput): Promise<Task>;
  /** Adds a task and starts it under the owner's lease when its queue is idle, atomically. */
  addAndStartIfIdle(input: AddTaskInput, options: Lease): Promise<{ task: Task; started: boolean }>;
  /** Records the session a task is worked in, once (a later worker continues that session). */
  attachSession(id: string, sessionId: string): Promise<Task>;
  /** The task, or undefined for an unknown id. */
  get(id: string): Promise<Task | undefined>;
  /** The full id of the task a user means by an id or a unique prefix of it (IdLookupError otherwise). */
  resolveId(input: string): Promise<string>;
  /** Pending and in-progress tasks in the order they will run (of one queue, or of all by queue). */
  listActive(queue?: string): Promise<Task[]>;
  /** Tasks matching the filter, by queue and sequence. */
  listAll(filter?: TaskFilter): Promise<Task[]>;
  /** The ids of the tasks this one depends on. */
  dependencies(id: string): Promise<string[]>;
  /**
   * Takes the next task of a queue under `owner`'s lease with one more attempt: undefined while
   * another task of the queue is in progress, else the lowest-sequence pending task whose
   * dependencies are completed. Expired leases of the queue are released first.
   */
  claimNext(options: ClaimOptions): Promise<Task | undefined>;
  /** Completes the held task and claims the next of its queue, in one step no other worker sees half of. */
  completeAndClaimNext(input: CompleteAndClaimInput): Promise<{ completed: Task; next: Task | undefined }>;
  /** Fails the held task and claims the next of its queue, in one step; its dependents stay pending. */
  failAndClaimNext(input: FailAndClaimInput): Promise<{ failed: Task; next: Task | undefined }>;
  /** Starts one given task (pending → in progress, one more attempt), for a scheduler running tasks in parallel. */
  start(id: string, options?: StartOptions): Promise<Task>;
  /** Starts the task if its queue is idle, atomically; false when another runs or it was claimed. */
  startIfIdle(id: string, options: Lease): Promise<boolean>;
  /**
   * Takes an in-progress task over from a worker known to be gone (compare-and-swap on the
   * previous owner); the takeover counts one more attempt.
   */
  takeOver(id: string, options: { from: string | null } & Lease): Promise<Task | undefined>;
  /** Extends a live lease; false when the owner no longer holds it (or, with `attempt`, another claim happened since). */
  renewLease(id: string, owner: string, leaseMs: number, attempt?: number): Promise<boolean>;
  /** Puts every in-progress task whose lease has expired back to pending; returns them. */
  releaseExpiredLeases(now?: number): Promise<Task[]>;
  /** In progress → completed. */
  complete(id: string, resultSummary: string, check?: OwnerCheck): Promise<Task>;
  /** In progress → failed. */
  fail(id: string, reason: string, check?: OwnerCheck): Promise<Task>;
  /** Pending or in progress → blocked; the reason goes in failReason. */
  block(id: string, reason: string, check?: OwnerCheck): Promise<Task>;
  /** A plan task the user chose to skip → skipped; tasks that depend on it may run. */
  skip(id: string): Promise<Task>;
  /** Completes or fails a pending or in-progress task for someone who did the work outside the worker. */
  settle(id: string, change: 'complete' | 'fail', text: string): Promise<Task>;
  /** Anything not completed or already cancelled → cancelled. */
  cancel(id: string): Promise<Task>;
  /**
   * Pending or in progress → stopped: the user stopped the goal, which waits for `resume` (no
   * worker claims it); the reason goes in failReason.
   */
  stop(id: string, reason: string, check?: OwnerCheck): Promise<Task>;
  /** In progress, failed, blocked, cancelled or stopped → pending, to be run again; the reason is cleared. */
  resetToPending(id: string, check?: OwnerCheck): Promise<Task>;
  /** A blocked task back in the queue: what it waited for came. Refused unless it is blocked. */
  reopen(id: string): Promise<Task>;
  /** Forgets the settings the waiting tasks were queued with; returns how many had some. */
  clearRunSettings(): Promise<number>;
  /** Removes a task that is not in progress, with its dependency rows both ways. */
  delete(id: string): Promise<Task>;
}
