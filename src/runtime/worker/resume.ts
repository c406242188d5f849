import type { Session, Task } from '../../store/rows.js';
import { FINISHED_TASK_STATUSES } from '../../store/task-changes.js';
import type { TaskStatus } from '../../store/vocabulary.js';
import { LAST_SESSION, type SessionBook } from '../books/session-book.js';
import { RuntimeInputError } from '../setup/errors.js';
import { endGitLeftBy, isDeadLocalWorker, localWorkerPid, newWorkerId } from '../setup/worker-identity.js';
import { closeGoalTask, outcomeText } from './close-goal-task.js';
import { continueSession } from './continue-session.js';
import type { QueueTaskResult } from './queue-task-result.js';
import { runQueueTask } from './run-queue-task.js';
import type { WorkerDeps } from './worker-deps.js';

/** The statuses a stop leaves a goal in (cancelled and failed: before the stopped status). */
const CLOSED_BY_A_STOP: ReadonlySet<TaskStatus> = new Set(['stopped', 'cancelled', 'failed']);

/** What `resume` found to do. */
export type ResumeOutcome =
  | { kind: 'nothing'; message: string }
  | { kind: 'resumed'; result: QueueTaskResult };

/**
 * Continues a session an earlier process left unfinished (the latest such session unless one is
 * named): its unfinished plan resumes with completed tasks left done, or its interrupted run
 * goes on. The goal's queue task is taken over from its worker, which must be gone: a session
 * a live process works on is refused (RuntimeInputError).
 */
export async function resumeSession(
  deps: WorkerDeps,
  /** `session`: the one named (id, unique prefix or "last"), found in `book`. */
  options: { session?: string; book: SessionBook },
): Promise<ResumeOutcome> {
  const { sessions, tasks, plans } = deps.store;
  const { leaseMs } = deps.leases;
  await deps.runs.tidyAfterCrash();
  let session: Session | undefined;
  if (options.session === LAST_SESSION) session = await sessions.lastSession();
  else if (options.session) session = await options.book.find(options.session);
  else session = await sessions.latestSessionWithUnfinishedWork();
  if (!session) {
    if (options.session) throw new RuntimeInputError('There is no session to resume in this workspace yet.');
    return {
      kind: 'nothing',
      message: 'Nothing to resume: no run or plan in this workspace was left unfinished.',
    };
  }
  const unfinishedPlan = (await plans.unfinishedPlans(session.id)).length > 0;
  const interrupted = (await sessions.runs(session.id)).some((run) => run.status === 'running');
  const stopped = (await stoppedGoalOf(deps, session.id)) !== undefined;
  if (!unfinishedPlan && !interrupted && !stopped) {
    return {
      kind: 'nothing',
      message: `Nothing to resume in session ${session.id}: its last run ended and it has no unfinished plan.`,
    };
  }
  const owner = newWorkerId();
  const goalTask = (await tasks.listAll({ sessionId: session.id, status: 'in_progress' })).find(
    (task) => task.planId === null,
  );
  if (goalTask) {
    const expired = (goalTask.leaseExpiresAt ?? 0) <= Date.now();
    if (!expired && !isDeadLocalWorker(goalTask.leaseOwner)) {
      throw new RuntimeInputError(
        `Session ${session.id} is being worked on by a live process (${goalTask.leaseOwner}); it is not resumed twice. Stop that process first, or wait for it to finish.`,
      );
    }
    const deadPid = localWorkerPid(goalTask.leaseOwner);
    if (deadPid !== undefined && isDeadLocalWorker(goalTask.leaseOwner)) await endGitLeftBy(deadPid);
    if (!(await tasks.takeOver(goalTask.id, { from: goalTask.leaseOwner, owner, leaseMs }))) {
      throw new RuntimeInputError(`Session ${session.id} was just taken over by another process.`);
    }
    const result = await runQueueTask(deps, goalTask, owner, { continuing: true });
    if (!result.cancelled && !deps.stop.requested)
      await closeGoalTask(
        tasks,
        {
          id: goalTask.id,
          owner,
          queue: goalTask.queue,
          leaseMs,
          answers: { store: deps.store, sessionId: result.sessionId },
        },
        result,
      );
    return { kind: 'resumed', result };
  }
  const run = await deps.runs.open(session.id, deps.runs.own(session.id));
  try {
    const result = await continueSession(deps.store, {
      sessionId: session.id,
      goal: session.goal,
      run: run.options,
      plan: deps.runs.settings.plan,
      stopped,
    });
    if (result.status === 'completed') await completeStoppedGoal(deps, session.id, result.finalAnswer);
    return {
      kind: 'resumed',
      result: {
        sessionId: session.id,
        status: result.status,
        finalAnswer: result.finalAnswer,
        reason: result.reason,
        cancelled: false,
      },
    };
  } finally {
    await run.end();
  }
}

/**
 * The session's latest goal when the user stopped it: `resume` continues it (its plan, or its run).
 * A later goal given in the session moves past it (closeStoppedGoal).
 */
export async function stoppedGoalOf(deps: Pick<WorkerDeps, 'store'>, sessionId: string) {
  const goal = latestGoal(await deps.store.tasks.listAll({ sessionId }));
  return goal?.status === 'stopped' ? goal : undefined;
}

/**
 * A new goal given in a session whose last goal the user stopped moves past that goal: it is
 * cancelled in the to-do list, with what its plan had left, so that neither waits for a `resume`
 * the user will not give (resume would take up the old plan instead of the new goal's work).
 * Resolves with how many tasks it closed.
 */
export async function closeStoppedGoal(deps: Pick<WorkerDeps, 'store'>, sessionId: string): Promise<number> {
  const { tasks } = deps.store;
  const all = await tasks.listAll({ sessionId });
  const goal = latestGoal(all);
  if (goal?.status !== 'stopped') return 0;
  const left = all.filter(
    (task) => task.id === goal.id || (task.planId !== null && !FINISHED_TASK_STATUSES.includes(task.status)),
  );
  for (const task of left) await tasks.cancel(task.id);
  return left.length;
}

function latestGoal(tasks: Task[]): Task | undefined {
  return tasks
    .filter((task) => task.planId === null)
    .sort((a, b) => a.sequence - b.sequence)
    .at(-1);
}

/**
 * The goal a stop had closed (stopped; cancelled or failed by older versions) that `resume` then
 * finished: the to-do list says completed, as the session does.
 */
async function completeStoppedGoal(
  deps: WorkerDeps,
  sessionId: string,
  finalAnswer: string | undefined,
): Promise<void> {
  const { tasks } = deps.store;
  const goal = latestGoal(await tasks.listAll({ sessionId }));
  if (!goal || !CLOSED_BY_A_STOP.has(goal.status)) return;
  await tasks.resetToPending(goal.id);
  await tasks.settle(goal.id, 'complete', outcomeText({ status: 'completed', finalAnswer }));
}
