import type { RunStatus } from '../../events/registry.js';
import type { Store, TaskQueue } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { reopenIfAnswered } from '../answers/reopen-answered.js';
import { NEEDS_INPUT_PREFIX } from '../answers/waiting-session.js';

/** How a goal's run ended. */
export interface Outcome {
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  /** The attempt the worker held the task under (its fencing token), when known. */
  attempt?: number;
}

/** The worker that closes a goal's queue task, the queue it hands over to and the lease it takes. */
export interface HandOff {
  id: string;
  owner: string;
  queue: string;
  leaseMs: number;
  /** The next task only from those queued after this position (a foreign database's are left). */
  afterSequence?: number;
  /** The attempt the worker holds the task under (its fencing token); the run's when not given. */
  attempt?: number;
  /**
   * The store and the task's session: a task blocked waiting for the user goes back in the queue
   * at once when its answer was given while the run was ending (see reopenIfAnswered).
   */
  answers?: { store: Store; sessionId: string };
}

/** The result summary (or failure reason) a queue task is closed with. */
export function outcomeText(result: Outcome): string {
  if (result.status === 'completed') return result.finalAnswer ?? 'completed';
  return result.reason ? `${result.status}: ${result.reason}` : result.status;
}

/**
 * Closes a goal's queue task as its run ended: completed, failed, stopped by the user, or blocked
 * while its session waits for the user (needs_input), so that the task list and the session list
 * say the same and `taskweave resume` can take the task up again.
 */
export async function closeGoalTask(tasks: TaskQueue, handOff: HandOff, result: Outcome): Promise<void> {
  const text = outcomeText(result);
  const holder = { owner: handOff.owner, attempt: handOff.attempt ?? result.attempt };
  if (result.status === 'completed') await tasks.complete(handOff.id, text, holder);
  else if (result.status === 'stopped') await tasks.stop(handOff.id, text, holder);
  else if (result.status === 'needs_input') {
    await tasks.block(handOff.id, blockedReason(result), holder);
    if (handOff.answers) await reopenIfAnswered(handOff.answers.store, handOff.answers.sessionId);
  } else await tasks.fail(handOff.id, text, holder);
}

/** closeGoalTask, then the next task of the queue claimed for the same worker (one hand-off). */
export async function closeGoalTaskAndClaimNext(
  tasks: TaskQueue,
  handOff: HandOff,
  result: Outcome,
): Promise<Task | undefined> {
  const text = outcomeText(result);
  const attempt = handOff.attempt ?? result.attempt;
  if (result.status === 'completed')
    return (await tasks.completeAndClaimNext({ ...handOff, attempt, resultSummary: text })).next;
  if (result.status !== 'needs_input' && result.status !== 'stopped')
    return (await tasks.failAndClaimNext({ ...handOff, attempt, reason: text })).next;
  if (result.status === 'stopped') await tasks.stop(handOff.id, text, { owner: handOff.owner, attempt });
  else {
    await tasks.block(handOff.id, blockedReason(result), { owner: handOff.owner, attempt });
    if (handOff.answers) await reopenIfAnswered(handOff.answers.store, handOff.answers.sessionId);
  }
  return tasks.claimNext({
    queue: handOff.queue,
    owner: handOff.owner,
    leaseMs: handOff.leaseMs,
    afterSequence: handOff.afterSequence,
  });
}

function blockedReason(result: Outcome): string {
  return result.reason ? `${NEEDS_INPUT_PREFIX}: ${result.reason}` : NEEDS_INPUT_PREFIX;
}
