import type { Task } from '../../store/rows.js';
import { StoreGoneError } from '../../store/store-errors.js';
import { closeGoalTask, closeGoalTaskAndClaimNext, type HandOff } from './close-goal-task.js';
import { type DrainSummary, drainQueue } from './drain-queue.js';
import type { QueueTaskResult } from './queue-task-result.js';
import { queuedSuffix, waitingInQueue } from './queued-goal.js';
import { runQueueTask } from './run-queue-task.js';
import type { WorkerDeps } from './worker-deps.js';

/** How a submitted goal ended, and the queue work this process ran after it. */
export interface SubmitOutcome {
  result: QueueTaskResult;
  /** Work queued while the goal ran, run after it here. */
  drained?: DrainSummary;
}

/** A goal whose task this process has started, as `owner`. */
export interface StartedGoal {
  task: Task;
  owner: string;
  /** Only tasks queued after this position are taken after it (a foreign database's are left). */
  afterSequence?: number;
}

/** Runs a goal whose task this process has started, then closes its task and works the queue behind it. */
export async function runSubmittedGoal(deps: WorkerDeps, goal: StartedGoal): Promise<SubmitOutcome> {
  const result = await runQueueTask(deps, goal.task, goal.owner);
  if (result.cancelled) return { result };
  try {
    return await afterSubmitted(deps, goal, result);
  } catch (error) {
    // The database file went away under the run, which ended as failed saying so: there is
    // nothing left to close the task in.
    if (error instanceof StoreGoneError && result.status === 'failed') return { result };
    throw error;
  }
}

/** Closes a goal's task as its run ended and works the queue behind it. */
async function afterSubmitted(
  deps: WorkerDeps,
  goal: StartedGoal,
  result: QueueTaskResult,
): Promise<SubmitOutcome> {
  const { tasks } = deps.store;
  const { task, owner, afterSequence } = goal;
  if (deps.stop.requested) {
    // A goal the user stopped is not left in the queue for a later worker to pick up: it is
    // stopped (resume continues it); one stopped at its plan's approval waits for it (blocked),
    // as without a terminal. Nothing runs after it here.
    await closeGoalTask(
      tasks,
      { id: task.id, owner, queue: task.queue, leaseMs: deps.leases.leaseMs },
      result,
    );
    return { result };
  }
  // Work queued while this goal ran runs after it, here (older queued work is left to `work`).
  const olderWaiting = (await tasks.listActive(task.queue)).some((other) => other.sequence < task.sequence);
  const handOff: HandOff = {
    id: task.id,
    owner,
    queue: task.queue,
    leaseMs: deps.leases.leaseMs,
    afterSequence,
    answers: { store: deps.store, sessionId: result.sessionId },
  };
  if (olderWaiting) {
    await closeGoalTask(tasks, handOff, result);
    return { result };
  }
  const next = await closeGoalTaskAndClaimNext(tasks, handOff, result);
  if (!next) return { result };
  const drained = await drainQueue(deps, {
    owner,
    queue: task.queue,
    afterSequence,
    first: next,
    announce: (queued) =>
      void waitingInQueue(tasks, task.queue).then((waiting) =>
        deps.notices.notice(
          `▶ next in the queue (added while the last task ran): ${queued.title}${queuedSuffix(waiting)}`,
        ),
      ),
  });
  return { result, drained };
}
