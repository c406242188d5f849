import type { RunStatus, ServerEvent } from '../../events/registry.js';
import { sleep } from '../../model/sleep.js';
import type { TaskQueue } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import type { TaskStatus } from '../../store/vocabulary.js';
import { newWorkerId } from '../setup/worker-identity.js';
import { releaseDeadWorkers } from './release-dead-workers.js';
import type { WorkerDeps } from './worker-deps.js';

/** How often a process waiting for its queued goal looks at the goal's task. */
export const QUEUED_GOAL_POLL_MS = 250;

/** The statuses a goal's task leaves only when someone acts: its run has ended. */
const ENDED: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'failed',
  'blocked',
  'cancelled',
  'skipped',
  'stopped',
]);

/** A queued goal another process ran, as the process that waited for it saw it end. */
export interface FollowedGoal {
  kind: 'followed';
  sessionId: string;
  /** How its run ended (`stopped` when it never ran). */
  status: RunStatus;
  /** Its final answer, when its response_complete had one. */
  finalAnswer?: string;
  cancelled: boolean;
  /** Cancelled before it ran, the session made for it was removed (it held nothing). */
  sessionRemoved?: boolean;
}

/** How a queued goal ended for the process that waited for it. */
export type QueuedGoalOutcome<Ran> =
  | FollowedGoal
  /** The queue became free before another worker took it: it ran in this process. */
  | { kind: 'ran_here'; outcome: Ran };

/** What waiting for a queued goal came to: followed to its end, or its turn came here. */
export type QueuedGoalTurn =
  | FollowedGoal
  /** This process started the goal's task (as `owner`): it runs here. */
  | { kind: 'turn'; task: Task; owner: string };

/**
 * Passes a queued goal's events on once each, in order, and remembers how its run ended: the
 * listener of the subscription to its session.
 */
export class QueuedGoalFollower {
  private last: number;
  private ended: { status: RunStatus; finalAnswer?: string } | undefined;

  constructor(
    afterSeq: number,
    private readonly onEvent: (event: ServerEvent) => void,
  ) {
    this.last = afterSeq;
  }

  /** The last seq passed on. */
  get lastSeq(): number {
    return this.last;
  }

  /** How the goal's run ended, when its response_complete came. */
  get status(): RunStatus | undefined {
    return this.ended?.status;
  }

  /** Its final answer, when its response_complete had one. */
  get finalAnswer(): string | undefined {
    return this.ended?.finalAnswer;
  }

  readonly follow = (event: ServerEvent): void => {
    if (event.seq <= this.last) return;
    this.last = event.seq;
    if (event.type === 'response_complete')
      this.ended = {
        status: event.status,
        ...(event.final_answer === undefined ? {} : { finalAnswer: event.final_answer }),
      };
    this.onEvent(event);
  };
}

/**
 * Waits for a queued goal's turn while `follower` gets its session's events (the caller
 * subscribes it): when its task ends in another process, the events logged before the task
 * closed are read to the end; when the queue is free before another worker takes the goal, its
 * task is started here and the caller runs it. When the user stops this process, the goal is
 * cancelled (a worker running it stops it at its next step boundary).
 */
export async function awaitQueuedGoal(
  deps: WorkerDeps,
  options: {
    task: Task;
    follower: QueuedGoalFollower;
    pollMs?: number;
    /** false: the goal is the workers' (queued with `--repo`); it is never started here. */
    runHere?: boolean;
  },
): Promise<QueuedGoalTurn> {
  const { task, follower } = options;
  const { tasks, sessions } = deps.store;
  const sessionId = task.sessionId ?? '';
  for (;;) {
    const current = await tasks.get(task.id);
    if (deps.stop.requested) {
      if (current && !ENDED.has(current.status)) await tasks.cancel(task.id);
      return { kind: 'followed', sessionId, status: 'stopped', cancelled: true };
    }
    if (current === undefined || ENDED.has(current.status)) {
      // The run's last events were logged before its task was closed: read them all.
      for (const event of await sessions.events(sessionId, { afterSeq: follower.lastSeq }))
        follower.follow(event);
      const cancelled = current === undefined || current.status === 'cancelled';
      const { finalAnswer } = follower;
      return {
        kind: 'followed',
        sessionId,
        status: follower.status ?? 'stopped',
        ...(finalAnswer === undefined ? {} : { finalAnswer }),
        cancelled,
      };
    }
    if (current.status === 'pending' && options.runHere !== false) {
      await releaseDeadWorkers(tasks, task.queue);
      const owner = newWorkerId();
      if (await tasks.startIfIdle(task.id, { owner, leaseMs: deps.leases.leaseMs })) {
        deps.notices.notice('▶ the queue is free: your request runs here');
        return { kind: 'turn', task: current, owner };
      }
    }
    await sleep(options.pollMs ?? QUEUED_GOAL_POLL_MS);
  }
}

/** How many goals wait in a queue behind the one that runs now. */
export async function waitingInQueue(tasks: TaskQueue, queue: string): Promise<number> {
  return (await tasks.listActive(queue)).filter((task) => task.status === 'pending').length;
}

/** ` (2 more queued)`, or nothing when none wait. */
export function queuedSuffix(waiting: number): string {
  return waiting === 0 ? ' (nothing else queued)' : ` (${waiting} more queued)`;
}
