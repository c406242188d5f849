import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { runAgent } from '../agent/run-agent.js';
import type { RunStatus } from '../events/registry.js';
import type { Task } from '../store/schema.js';
import { errorMessage } from '../util/error-message.js';
import type { AgentRuntime } from './agent-runtime.js';

/** How long a worker's claim on a task lasts without renewal; a dead worker's task returns to the queue after it. */
export const LEASE_MS = 30_000;
/** How often a worker looks at its task (was it cancelled?) while the agent works on it. */
export const WATCH_INTERVAL_MS = 500;
/** How often the lease is renewed. */
export const RENEW_EVERY_MS = 10_000;

/** A worker id, unique per process. */
export function newWorkerId(): string {
  return `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/** How one queue task ended. */
export interface QueueTaskResult {
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  /** The task was cancelled (or its lease lost) while it ran: the worker stopped it. */
  cancelled: boolean;
}

/**
 * Runs one claimed task of the queue with the agent, in a session of its own, renewing the lease
 * while it runs. Cancelling the task from elsewhere (`taskweave tasks cancel`, `run --interrupt`)
 * stops the run at the next step boundary.
 */
export async function runQueueTask(
  runtime: AgentRuntime,
  task: Task,
  owner: string,
  conversation: { sessionId?: string; history?: ModelMessage[] } = {},
): Promise<QueueTaskResult> {
  const { sessions, tasks } = runtime.store;
  const goal = task.description ?? task.title;
  const sessionId =
    conversation.sessionId ??
    sessions.createSession({
      title: task.title,
      goal,
      workspace: runtime.workspace.root,
      model: runtime.model.id,
    }).id;
  const agentOptions = runtime.agentOptions(sessionId);
  let cancelled = false;
  let renewedAt = Date.now();
  const watch = setInterval(() => {
    const current = tasks.get(task.id);
    let held = current?.status === 'in_progress' && current.leaseOwner === owner;
    if (held && Date.now() - renewedAt >= RENEW_EVERY_MS) {
      held = tasks.renewLease(task.id, owner, LEASE_MS);
      renewedAt = Date.now();
    }
    if (!held && !cancelled) {
      cancelled = true;
      runtime.say(`■ the task "${task.title}" was cancelled; stopping it at the next step boundary`);
      agentOptions.control.stop();
    }
  }, WATCH_INTERVAL_MS);
  try {
    const result = await runAgent({
      goal,
      history: conversation.history,
      plan: runtime.options.plan,
      ownTaskId: task.id,
      ...agentOptions,
    });
    return { status: result.status, finalAnswer: result.finalAnswer, reason: result.reason, cancelled };
  } catch (error) {
    // An unexpected error must not leave the task in progress for a later worker to run again
    // blindly: it fails, with the error as its reason, and the error goes on to the user.
    if (tasks.get(task.id)?.status === 'in_progress')
      tasks.fail(task.id, `taskweave failed: ${errorMessage(error)}`);
    throw error;
  } finally {
    clearInterval(watch);
  }
}

/** What a worker did. */
export interface DrainSummary {
  completed: number;
  failed: number;
  /** The user pressed Ctrl-C: the current task went back to the queue. */
  stopped: boolean;
}

/**
 * Works the queue one task after another, starting with a task already claimed, handing each
 * finished task over to the next in one transaction. `shouldContinue` decides whether the next
 * claimed task is run (a `run` only goes on with work queued behind its own goal).
 */
export async function drainQueue(
  runtime: AgentRuntime,
  options: { owner: string; queue: string; first: Task; announce: (task: Task, index: number) => void },
): Promise<DrainSummary> {
  const { tasks } = runtime.store;
  const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
  let task: Task | undefined = options.first;
  let index = 0;
  while (task) {
    index += 1;
    options.announce(task, index);
    const result = await runQueueTask(runtime, task, options.owner);
    const handOff = { id: task.id, owner: options.owner, queue: options.queue, leaseMs: LEASE_MS };
    if (runtime.stopRequested) {
      // Ctrl-C: the task goes back to the queue (it runs again later) and the worker ends.
      if (!result.cancelled) tasks.resetToPending(task.id);
      summary.stopped = true;
      return summary;
    }
    if (result.cancelled) {
      task = tasks.claimNext({ queue: options.queue, owner: options.owner, leaseMs: LEASE_MS });
      continue;
    }
    if (result.status === 'completed') {
      summary.completed += 1;
      task = tasks.completeAndClaimNext({
        ...handOff,
        resultSummary: result.finalAnswer ?? 'completed',
      }).next;
    } else {
      summary.failed += 1;
      const reason = `${result.status}${result.reason ? `: ${result.reason}` : ''}`;
      task = tasks.failAndClaimNext({ ...handOff, reason }).next;
    }
  }
  return summary;
}

/**
 * Starts the given task if its queue is idle (no task in progress), in one transaction: a queue
 * runs one task at a time, whoever asks.
 */
export function claimIfIdle(runtime: AgentRuntime, task: Task, owner: string): boolean {
  const { tasks, db } = runtime.store;
  return db.sqlite
    .transaction(() => {
      const busy = tasks
        .listActive(task.queue)
        .some((other) => other.status === 'in_progress' && other.id !== task.id);
      if (busy) return false;
      tasks.start(task.id, { owner, leaseMs: LEASE_MS });
      return true;
    })
    .immediate();
}
