import { Journal, recordRefusedRun } from '../../agent/index.js';
import { QueuedModelError } from '../../config/queued-model-trust.js';
import type { Store } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { errorMessage } from '../../util/error-message.js';
import { type StoredAnswerContinuation, takeStoredAnswer } from '../answers/stored-answer-continuation.js';
import type { QueueTaskResult } from './queue-task-result.js';
import type { RunChoice } from './run-factory.js';
import type { WorkerDeps } from './worker-deps.js';

/** How a worker continues or starts a claimed task. */
export interface ClaimOptions {
  /** The user continues the task (resume, an answer), with this process's settings. */
  continuing?: boolean;
  /** What the continued run is told instead of the task's goal (an answer the session waited for). */
  goal?: string;
}

/** A claimed task taken up: its session, what its run is told, and the settings it runs with. */
export interface ClaimedTask {
  task: Task;
  owner: string;
  sessionId: string;
  goal: string;
  /** The session goes on from an earlier run (a resume, an answer, a dead worker's attempt). */
  continuing: boolean;
  /** The answer someone stored for what the session waited for, taken by this worker. */
  answered?: StoredAnswerContinuation;
  choice: RunChoice;
}

/**
 * Takes up a task this worker has claimed: the answer stored for its waiting session (taken),
 * its session (a new one for work added with `taskweave tasks add`, stored on the task at once),
 * and the settings it runs with. Settled without a run when an earlier worker's run already
 * completed it, or when its settings cannot be honoured here.
 */
export async function claimTask(
  deps: WorkerDeps,
  task: Task,
  owner: string,
  options: ClaimOptions,
): Promise<{ kind: 'claimed'; claimed: ClaimedTask } | { kind: 'settled'; result: QueueTaskResult }> {
  const { store, runs, notices } = deps;
  // An answer someone gave (on any machine) to what the task's session waited for: the run goes on with it.
  const answered =
    options.goal === undefined && task.sessionId !== null
      ? await takeStoredAnswer(deps, task.sessionId, owner)
      : undefined;
  const goal = options.goal ?? answered?.goal ?? (task.description || task.title);
  const sessionId = task.sessionId ?? (await newSessionFor(deps, task, goal));
  // attempts counts claims: more than one means an earlier worker took this task and died.
  const continuing = options.continuing === true || task.attempts > 1 || answered !== undefined;
  if (continuing) {
    await runs.tidyAfterCrash();
    const done = await completedRunOf(store, task, sessionId);
    if (done)
      return {
        kind: 'settled',
        result: {
          sessionId,
          status: 'completed',
          finalAnswer: done.finalAnswer ?? undefined,
          cancelled: false,
        },
      };
  }
  let choice: RunChoice;
  try {
    // `resume` and an answer to a waiting session are the user's own say, with this process's
    // settings; everything the queue hands out runs with the settings it was queued with.
    choice = options.continuing ? runs.own(sessionId) : await runs.forTask(task, sessionId);
  } catch (error) {
    // Settings that cannot be honoured here (a model that cannot be built, a stored value that
    // cannot be read): the task is refused, saying why, rather than run with other settings.
    // A queued model this process does not trust says so itself (queued-model-trust.ts).
    const reason =
      error instanceof QueuedModelError
        ? error.message
        : `not run with other settings than it was queued with: ${errorMessage(error)}`;
    notices.notice(`■ the task "${task.title}" was ${reason}`);
    // The session says why too: whoever queued the goal follows it there.
    const journal = new Journal({ sessionId, store, bus: deps.bus });
    await recordRefusedRun({ store, journal, goal, taskId: task.id, reason }).catch(() => undefined);
    return { kind: 'settled', result: { sessionId, status: 'failed', reason, cancelled: false } };
  }
  const claimed = { task, owner, sessionId, goal, continuing, choice };
  return { kind: 'claimed', claimed: answered === undefined ? claimed : { ...claimed, answered } };
}

async function newSessionFor(deps: WorkerDeps, task: Task, goal: string): Promise<string> {
  const { sessions, tasks } = deps.store;
  const session = await sessions.createSession({
    title: task.title,
    goal,
    workspace: deps.runs.workspaceRoot,
    model: deps.runs.modelId,
  });
  await tasks.attachSession(task.id, session.id);
  return session.id;
}

/**
 * The run that already completed a task, when an earlier worker died after the run ended but
 * before it closed the task: the last run of the task's session started since the task was
 * added, completed, with no unfinished plan left. Its work is done and is not done again.
 */
async function completedRunOf(store: Store, task: Task, sessionId: string) {
  const runs = (await store.sessions.runs(sessionId)).filter((run) => run.startedAt >= task.createdAt);
  const last = runs.at(-1);
  if (last?.status !== 'completed') return undefined;
  if ((await store.plans.unfinishedPlans(sessionId)).length > 0) return undefined;
  return last;
}
