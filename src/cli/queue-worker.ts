import { type RunAgentOptions, type RunResult, resumePlan, runAgent } from '../agent/run-agent.js';
import { loadConversation } from '../agent/stored-conversation.js';
import { loadStoredPlan } from '../agent/stored-plan.js';
import type { RunStatus } from '../events/registry.js';
import type { Task } from '../store/schema.js';
import { errorMessage } from '../util/error-message.js';
import type { AgentRuntime } from './agent-runtime.js';
import { isDeadLocalWorker } from './worker-identity.js';

/** How long a worker's claim on a task lasts without renewal; a dead worker's task returns to the queue after it. */
export const LEASE_MS = 30_000;
/** How often a worker looks at its task (was it cancelled?) while the agent works on it. */
export const WATCH_INTERVAL_MS = 500;
/** How often the lease is renewed. */
export const RENEW_EVERY_MS = 10_000;

/** The result summary (or failure reason) a queue task is closed with. */
export function outcomeText(result: Pick<QueueTaskResult, 'status' | 'finalAnswer' | 'reason'>): string {
  if (result.status === 'completed') return result.finalAnswer ?? 'completed';
  return result.reason ? `${result.status}: ${result.reason}` : result.status;
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
 * Runs one claimed task of the queue with the agent, in the task's session (a new one for work
 * added with `taskweave tasks add`), renewing the lease while it runs. A task that an earlier
 * worker started and did not finish (it died) continues where that worker left off. Cancelling
 * the task from elsewhere (`taskweave tasks cancel`, `run --interrupt`) stops the run at the
 * next step boundary.
 */
export async function runQueueTask(
  runtime: AgentRuntime,
  task: Task,
  owner: string,
  options: { continuing?: boolean } = {},
): Promise<QueueTaskResult> {
  const { sessions, tasks } = runtime.store;
  const goal = task.description ?? task.title;
  const sessionId =
    task.sessionId ??
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
    // attempts counts claims: more than one means an earlier worker took this task and died.
    const result =
      options.continuing || task.attempts > 1
        ? await continueSession(runtime, { sessionId, goal, ownTaskId: task.id, agentOptions })
        : await runAgent({
            goal,
            history: loadConversation(sessions, sessionId, null),
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
        resultSummary: outcomeText(result),
      }).next;
    } else {
      summary.failed += 1;
      task = tasks.failAndClaimNext({ ...handOff, reason: outcomeText(result) }).next;
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

/** The message that continues a simple run the process left unfinished. */
export const CONTINUE_INTERRUPTED =
  '[taskweave] The previous run was interrupted before it finished (the process ended). Continue the request where it left off; files you changed are as you left them.';

/**
 * Continues a session an earlier process left unfinished: its unfinished plan resumes (completed
 * tasks stay done), or else the conversation goes on from where it stopped.
 */
export async function continueSession(
  runtime: AgentRuntime,
  options: {
    sessionId: string;
    goal: string;
    ownTaskId?: string;
    agentOptions: Omit<RunAgentOptions, 'goal'>;
  },
): Promise<RunResult> {
  const { sessions, tasks } = runtime.store;
  const interrupted = sessions.runs(options.sessionId).filter((run) => run.status === 'running');
  // The processes of these runs are gone; their records say so before the new run starts.
  for (const run of interrupted) {
    sessions.finishRun({
      id: run.id,
      status: 'stopped',
      steps: run.steps,
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
    });
  }
  const [plan] = tasks.unfinishedPlans(options.sessionId);
  if (plan) return resumePlan(options.agentOptions, loadStoredPlan(runtime.store, plan.id));
  return runAgent({
    goal: interrupted.length > 0 ? CONTINUE_INTERRUPTED : options.goal,
    history: loadConversation(sessions, options.sessionId, null),
    plan: runtime.options.plan,
    ownTaskId: options.ownTaskId,
    ...options.agentOptions,
  });
}

/**
 * Puts back in the queue the in-progress tasks of workers of this machine whose process is gone
 * (killed, crashed), without waiting for their leases to expire.
 */
export function releaseDeadWorkers(runtime: AgentRuntime, queue: string): void {
  const { tasks } = runtime.store;
  tasks.releaseExpiredLeases();
  for (const task of tasks.listActive(queue)) {
    if (task.status === 'in_progress' && task.leaseOwner !== null && isDeadLocalWorker(task.leaseOwner)) {
      tasks.resetToPending(task.id);
    }
  }
}
