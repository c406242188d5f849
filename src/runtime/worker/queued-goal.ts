import type { RunStatus, ServerEvent } from '../../events/registry.js';
import { sleep } from '../../model/sleep.js';
import type { Task } from '../../store/rows.js';
import type { TaskStatus } from '../../store/vocabulary.js';
import { LEASE_MS, releaseDeadWorkers, type WorkerContext } from './queue-worker.js';
import { newWorkerId } from './worker-identity.js';

/** How often a process waiting for its queued goal looks at the goal's task. */
export const QUEUED_GOAL_POLL_MS = 250;

/** The statuses a goal's task leaves only when someone acts: its run has ended. */
const ENDED: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'blocked', 'cancelled', 'skipped']);

/** How a queued goal ended for the process that waited for it. */
export type QueuedGoalOutcome<Ran> =
  /** Another process ran it; `status` is how its run ended (`stopped` when it never ran). */
  | { kind: 'followed'; sessionId: string; status: RunStatus; cancelled: boolean }
  /** The queue became free before another worker took it: it ran in this process. */
  | { kind: 'ran_here'; outcome: Ran };

/** What waiting for a queued goal needs of the runtime. */
export interface QueuedGoalContext<Ran> extends WorkerContext {
  subscribe(sessionId: string, afterSeq: number, listener: (event: ServerEvent) => void): () => void;
  /** Runs a goal whose task this process has just started (the rest of `submit`). */
  runStarted(task: Task, owner: string): Promise<Ran>;
}

/**
 * Waits for a queued goal's turn and follows it: while another process runs it, its session's
 * events (read from the store's log) go to `onEvent` as they are written; when the queue is free
 * before another worker takes the goal, it runs here. When the user stops this process, the
 * goal is cancelled (a worker running it stops it at its next step boundary).
 */
export async function awaitQueuedGoal<Ran>(
  ctx: QueuedGoalContext<Ran>,
  options: {
    task: Task;
    afterSeq: number;
    onEvent: (event: ServerEvent) => void;
    pollMs?: number;
    /** false: the goal is the workers' (queued with `--repo`); it is never started here. */
    runHere?: boolean;
  },
): Promise<QueuedGoalOutcome<Ran>> {
  const { task } = options;
  const { tasks, sessions } = ctx.store;
  const sessionId = task.sessionId ?? '';
  let last = options.afterSeq;
  let status: RunStatus | undefined;
  const follow = (event: ServerEvent) => {
    if (event.seq <= last) return;
    last = event.seq;
    if (event.type === 'response_complete') status = event.status;
    options.onEvent(event);
  };
  const unsubscribe = ctx.subscribe(sessionId, options.afterSeq, follow);
  try {
    for (;;) {
      const current = await tasks.get(task.id);
      if (ctx.stopRequested) {
        if (current && !ENDED.has(current.status)) await tasks.cancel(task.id);
        return { kind: 'followed', sessionId, status: 'stopped', cancelled: true };
      }
      if (current === undefined || ENDED.has(current.status)) {
        // The run's last events were logged before its task was closed: read them all.
        for (const event of await sessions.events(sessionId, { afterSeq: last })) follow(event);
        const cancelled = current === undefined || current.status === 'cancelled';
        return { kind: 'followed', sessionId, status: status ?? 'stopped', cancelled };
      }
      if (current.status === 'pending' && options.runHere !== false) {
        await releaseDeadWorkers(ctx, task.queue);
        const owner = newWorkerId();
        if (await tasks.startIfIdle(task.id, { owner, leaseMs: LEASE_MS })) {
          unsubscribe();
          ctx.notice('▶ the queue is free: your request runs here');
          return { kind: 'ran_here', outcome: await ctx.runStarted(current, owner) };
        }
      }
      await sleep(options.pollMs ?? QUEUED_GOAL_POLL_MS);
    }
  } finally {
    unsubscribe();
  }
}

/** How many goals wait in a queue behind the one that runs now. */
export async function waitingInQueue(ctx: WorkerContext, queue: string): Promise<number> {
  return (await ctx.store.tasks.listActive(queue)).filter((task) => task.status === 'pending').length;
}

/** ` (2 more queued)`, or nothing when none wait. */
export function queuedSuffix(waiting: number): string {
  return waiting === 0 ? ' (nothing else queued)' : ` (${waiting} more queued)`;
}
