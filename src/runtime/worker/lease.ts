import type { TaskQueue } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import type { LeaseTerms } from './lease-terms.js';

/**
 * A worker's hold on the one task it claimed, handed down as a value to what must not act once
 * the hold is gone (closing the task, pushing a shared repository's branches): the holder and
 * the fencing token it holds the task under, and a look at whether it still does.
 */
export interface Lease {
  readonly taskId: string;
  readonly owner: string;
  /**
   * The attempt the task was at when this worker held it (its fencing token): a write that
   * carries it is refused once another claim counted a new attempt. Undefined when the worker
   * no longer held the task as the lease was taken.
   */
  readonly token: number | undefined;
  /** Whether the task is still in progress under this owner and token. */
  stillHolds(): Promise<boolean>;
}

/**
 * What a worker finds when it looks at its task: still its own, cancelled, stopped by the user
 * from another process (it waits for `resume`), or taken over.
 */
export type LeaseState = 'held' | 'cancelled' | 'stopped' | 'taken';

/** The store's task queue as far as a lease reads and renews it. */
export type LeaseStore = Pick<TaskQueue, 'get' | 'renewLease'>;

/**
 * The lease of a task a worker has claimed, renewed as it is checked. The token is read from the
 * store, not from the task object the worker was handed: that object may predate the claim or
 * takeover that counted the attempt.
 */
export class TaskLease implements Lease {
  private renewedAt = Date.now();
  private seen: Task | undefined;

  private constructor(
    private readonly tasks: LeaseStore,
    private readonly terms: LeaseTerms,
    readonly taskId: string,
    readonly owner: string,
    readonly token: number | undefined,
  ) {}

  /** Takes the lease of `task`, claimed by `owner`. */
  static async take(options: {
    tasks: LeaseStore;
    terms: LeaseTerms;
    task: Pick<Task, 'id'>;
    owner: string;
  }): Promise<TaskLease> {
    const { tasks, terms, task, owner } = options;
    const claimed = await tasks.get(task.id);
    const token =
      claimed?.status === 'in_progress' && claimed.leaseOwner === owner ? claimed.attempts : undefined;
    return new TaskLease(tasks, terms, task.id, owner, token);
  }

  async stillHolds(): Promise<boolean> {
    return this.holds(await this.tasks.get(this.taskId));
  }

  /** Looks at the task and renews the lease when a renewal is due; says what the worker found. */
  async check(): Promise<LeaseState> {
    const current = await this.tasks.get(this.taskId);
    this.seen = current;
    let held = this.holds(current);
    if (held && Date.now() - this.renewedAt >= this.terms.renewEveryMs) {
      held = await this.tasks.renewLease(this.taskId, this.owner, this.terms.leaseMs, this.token);
      this.renewedAt = Date.now();
    }
    if (held) return 'held';
    if (current === undefined || current.status === 'cancelled') return 'cancelled';
    return current.status === 'stopped' ? 'stopped' : 'taken';
  }

  /** The task as the last check found it: who holds it now, when the lease was lost. */
  get lastSeen(): Task | undefined {
    return this.seen;
  }

  private holds(current: Task | undefined): boolean {
    return (
      current?.status === 'in_progress' &&
      current.leaseOwner === this.owner &&
      (this.token === undefined || current.attempts === this.token)
    );
  }
}

/**
 * Checks a lease every `intervalMs` while its task runs; the first time it is no longer held,
 * `onLost` hears why (once). A store that fails meanwhile (its file deleted or locked under the
 * run) is not a lost lease: the run's own next write fails the same way and ends it as failed,
 * with the reason; thrown here, it would end the process with a stack trace and no final status.
 * Returns the function that stops watching.
 */
export function watchLease(
  lease: Pick<TaskLease, 'check'>,
  options: { intervalMs: number; onLost: (state: Exclude<LeaseState, 'held'>) => void },
): () => void {
  let checking = false;
  let lost = false;
  const timer = setInterval(async () => {
    if (checking || lost) return;
    checking = true;
    try {
      const state = await lease.check();
      if (state !== 'held' && !lost) {
        lost = true;
        options.onLost(state);
      }
    } catch {
      // See above: the run itself reports a failing store.
    } finally {
      checking = false;
    }
  }, options.intervalMs);
  return () => clearInterval(timer);
}
