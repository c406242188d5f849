import type { Task } from '../../store/rows.js';
import { TaskStoreError } from '../../store/store-errors.js';
import { closeGoalTask, closeGoalTaskAndClaimNext, type HandOff } from './close-goal-task.js';
import type { QueueTaskResult } from './queue-task-result.js';
import { runQueueTask } from './run-queue-task.js';
import type { WorkerDeps } from './worker-deps.js';

/** What a worker did. */
export interface DrainSummary {
  completed: number;
  failed: number;
  /** The user stopped the worker: the current task went back to the queue. */
  stopped: boolean;
}

/** Where a worker drains a queue from, and how far. */
export interface DrainOptions {
  owner: string;
  queue: string;
  first: Task;
  announce: (task: Task, index: number) => void;
  /** Only tasks queued after this position are taken (a foreign database's are left). */
  afterSequence?: number;
  /** Stop after this many tasks (closing the last without claiming the next). */
  maxTasks?: number;
}

/**
 * Works the queue one task after another, starting with a task already claimed, handing each
 * finished task over to the next in one transaction.
 */
export async function drainQueue(deps: WorkerDeps, options: DrainOptions): Promise<DrainSummary> {
  const { tasks } = deps.store;
  const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
  let task: Task | undefined = options.first;
  let index = 0;
  while (task) {
    index += 1;
    options.announce(task, index);
    const result = await runQueueTask(deps, task, options.owner);
    if (deps.stop.requested) {
      await putBack(deps, task, options.owner, result);
      summary.stopped = true;
      return summary;
    }
    if (result.cancelled) {
      task = await tasks.claimNext({
        queue: options.queue,
        owner: options.owner,
        leaseMs: deps.leases.leaseMs,
        afterSequence: options.afterSequence,
      });
      continue;
    }
    if (result.status === 'completed') summary.completed += 1;
    else summary.failed += 1;
    const handOff: HandOff = {
      id: task.id,
      owner: options.owner,
      queue: options.queue,
      leaseMs: deps.leases.leaseMs,
      afterSequence: options.afterSequence,
      answers: { store: deps.store, sessionId: result.sessionId },
    };
    if (options.maxTasks !== undefined && index >= options.maxTasks) {
      await closeGoalTask(tasks, handOff, result);
      return summary;
    }
    task = await closeGoalTaskAndClaimNext(tasks, handOff, result);
  }
  return summary;
}

/**
 * Stopped: the task goes back to the queue (it runs again later) and the worker ends; one
 * another worker took over meanwhile is left to it (the token refuses the reset).
 */
async function putBack(deps: WorkerDeps, task: Task, owner: string, result: QueueTaskResult): Promise<void> {
  if (result.cancelled) return;
  await deps.store.tasks
    .resetToPending(task.id, { owner, attempt: result.attempt })
    .catch((error: unknown) => {
      if (!(error instanceof TaskStoreError)) throw error;
    });
}
