import { DEFAULT_QUEUE } from '../../store/defaults.js';
import type { Task } from '../../store/rows.js';
import { describeOrigin, type ForeignDatabase } from '../setup/database-origin.js';
import { newWorkerId } from '../setup/worker-identity.js';
import { type DrainSummary, drainQueue } from './drain-queue.js';
import { reclaimLeftWorktrees } from './left-worktrees.js';
import { watchQueue } from './queue-wake.js';
import { releaseDeadWorkers } from './release-dead-workers.js';
import type { WorkerDeps } from './worker-deps.js';

/** How often a waiting worker looks again when the store did not wake it (expired leases, a stop). */
const WAIT_POLL_MS = 500;

/** What `work` did. */
export type WorkOutcome =
  | { kind: 'empty' }
  | { kind: 'busy'; running: Task }
  | { kind: 'drained'; summary: DrainSummary };

/** Which queue a worker works, how long, and what it leaves. */
export interface WorkOptions {
  queue?: string;
  /** Wait for more work when the queue is empty, until stopped. */
  watch?: boolean;
  pollMs?: number;
  /** Without watch: stop after this many tasks (a worker of several queues takes them in turn). */
  maxTasks?: number;
  /** The database came from another folder: the work queued in it before is left. */
  foreign?: ForeignDatabase;
  /** The database's path, for the notice that says so. */
  databasePath: string;
}

/** Drains a queue, one task after another; with `watch`, waits for more until stopped. */
export async function workQueue(deps: WorkerDeps, options: WorkOptions): Promise<WorkOutcome> {
  const queue = options.queue ?? DEFAULT_QUEUE;
  const { tasks } = deps.store;
  const owner = newWorkerId();
  const afterSequence = await announceStart(deps, queue, options);
  const claim = { queue, owner, leaseMs: deps.leases.leaseMs, afterSequence };
  const waitForTask = async (): Promise<Task | undefined> => {
    deps.notices.notice('The queue is empty; waiting for tasks (Ctrl-C ends).');
    // Woken by the store when a task of the queue changes; the poll catches expired leases and a stop.
    const wake = await watchQueue(deps.store, queue);
    try {
      while (!deps.stop.requested) {
        await releaseDeadWorkers(tasks, queue);
        const task = await tasks.claimNext(claim);
        if (task) return task;
        await wake.wait(options.pollMs ?? WAIT_POLL_MS);
      }
      return undefined;
    } finally {
      await wake.close();
    }
  };
  let first = await tasks.claimNext(claim);
  if (!first && options.watch) first = await waitForTask();
  if (!first) {
    const running = (await tasks.listActive(queue)).find((task) => task.status === 'in_progress');
    return running ? { kind: 'busy', running } : { kind: 'empty' };
  }
  const announce = async (task: Task, index: number) => {
    const waiting = (await tasks.listActive(queue)).filter(
      (candidate) => candidate.status === 'pending',
    ).length;
    deps.notices.notice(`▶ task ${index} of ${index + waiting}: ${task.title}`);
  };
  const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
  let next: Task | undefined = first;
  while (next) {
    const more = await drainQueue(deps, {
      owner,
      queue,
      afterSequence,
      maxTasks: options.watch ? undefined : options.maxTasks,
      first: next,
      announce: (task, index) => void announce(task, index),
    });
    summary.completed += more.completed;
    summary.failed += more.failed;
    summary.stopped = more.stopped;
    next = options.watch && !summary.stopped ? await waitForTask() : undefined;
  }
  return { kind: 'drained', summary };
}

/**
 * Puts dead workers' tasks back and says so, reclaims the worktrees of goals a killed worker left
 * that nobody will continue, and says what a database from another folder left:
 * its work is left until the user makes it theirs. Returns the sequence after which tasks are taken.
 */
async function announceStart(
  deps: WorkerDeps,
  queue: string,
  options: WorkOptions,
): Promise<number | undefined> {
  const { tasks } = deps.store;
  const released = await releaseDeadWorkers(tasks, queue);
  if (released > 0) {
    deps.notices.notice(
      `${released} task${released === 1 ? '' : 's'} whose worker stopped without finishing went back to the queue.`,
    );
  }
  await reclaimLeftWorktrees(deps);
  const { foreign } = options;
  const afterSequence = foreign?.queuedBefore.get(queue);
  if (foreign !== undefined && afterSequence !== undefined) {
    const left = (await tasks.listActive(queue)).filter((task) => task.sequence <= afterSequence).length;
    deps.notices.notice(
      `The database ${options.databasePath} was not created for this workspace (${describeOrigin(foreign)}): the ${left} task${left === 1 ? '' : 's'} queued in it before now ${left === 1 ? 'is' : 'are'} not run. If it is yours, run again with --trust-db to make it this workspace's and work them.`,
    );
  }
  return afterSequence;
}
