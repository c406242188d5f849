import type { Session } from '../../store/rows.js';
import { LAST_SESSION, type SessionBook } from '../books/session-book.js';
import { RuntimeInputError } from '../setup/errors.js';
import { closeGoalTask } from './close-goal-task.js';
import { cleanUpAfterCrash } from './crash-cleanup.js';
import {
  continueSession,
  LEASE_MS,
  type QueueTaskResult,
  runQueueTask,
  sessionRun,
  type WorkerContext,
} from './queue-worker.js';
import { isDeadLocalWorker, newWorkerId } from './worker-identity.js';

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
  ctx: WorkerContext & { sessions: SessionBook },
  options: { session?: string },
): Promise<ResumeOutcome> {
  const { sessions, tasks, plans } = ctx.store;
  await cleanUpAfterCrash(ctx);
  let session: Session | undefined;
  if (options.session === LAST_SESSION) session = await sessions.lastSession();
  else if (options.session) session = await ctx.sessions.find(options.session);
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
  if (!unfinishedPlan && !interrupted) {
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
    if (!(await tasks.takeOver(goalTask.id, { from: goalTask.leaseOwner, owner, leaseMs: LEASE_MS }))) {
      throw new RuntimeInputError(`Session ${session.id} was just taken over by another process.`);
    }
    const result = await runQueueTask(ctx, goalTask, owner, { continuing: true });
    if (!result.cancelled && !ctx.stopRequested)
      await closeGoalTask(
        tasks,
        {
          id: goalTask.id,
          owner,
          queue: goalTask.queue,
          leaseMs: LEASE_MS,
          answers: { store: ctx.store, sessionId: result.sessionId },
        },
        result,
      );
    return { kind: 'resumed', result };
  }
  const { run, end } = await sessionRun(ctx, session.id);
  try {
    const result = await continueSession(ctx, { sessionId: session.id, goal: session.goal, run });
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
    await end();
  }
}
