import type { RunControl } from '../../agent/index.js';
import { loadConversation, type RunResult, runAgent } from '../../agent/index.js';
import type { Task } from '../../store/rows.js';
import { errorMessage } from '../../util/error-message.js';
import { carryFailureDecisions } from './carried-decisions.js';
import { type ClaimedTask, type ClaimOptions, claimTask } from './claim-task.js';
import { continueSession } from './continue-session.js';
import { TaskLease, watchLease } from './lease.js';
import { leaseLostNotice } from './lease-lost-notice.js';
import type { QueueTaskResult } from './queue-task-result.js';
import type { OpenedRun } from './run-factory.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Runs one claimed task of the queue with the agent: claim (its session, goal and settings),
 * lease (the fencing token, watched and renewed while the run goes on), run, close. A task an
 * earlier worker started and did not finish (it died) continues where that worker left off.
 * Cancelling the task from elsewhere, or another worker taking it over, stops the run at the next
 * step boundary.
 */
export async function runQueueTask(
  deps: WorkerDeps,
  task: Task,
  owner: string,
  options: ClaimOptions = {},
): Promise<QueueTaskResult> {
  const claim = await claimTask(deps, task, owner, options);
  if (claim.kind === 'settled') return claim.result;
  const { claimed } = claim;
  const lease = await TaskLease.take({ tasks: deps.store.tasks, terms: deps.leases, task, owner });
  const run = await openClaimedRun(deps, claimed, lease);
  const watch = watchTask(deps, { task, lease, control: run.options.control });
  try {
    const result = await runClaimed(deps, claimed, run);
    return resultOf(claimed.sessionId, result, watch.verdict(), lease.token);
  } catch (error) {
    await failUnfinished(deps, lease, error);
    throw error;
  } finally {
    watch.stop();
    await run.end();
  }
}

/** Opens the run of a claimed task, with the verdicts given for it while no worker ran it. */
async function openClaimedRun(deps: WorkerDeps, claimed: ClaimedTask, lease: TaskLease): Promise<OpenedRun> {
  const run = await deps.runs.open(claimed.sessionId, claimed.choice, lease);
  const { control } = run.options;
  if (claimed.answered?.approval) {
    const { name, preview, decision, reason } = claimed.answered.approval;
    control.approveAhead({ name, preview }, decision, reason);
  }
  if (claimed.continuing) await carryFailureDecisions(deps.store, claimed.sessionId, control, claimed.owner);
  return run;
}

/** How the lease fared while the task ran. */
interface LeaseVerdict {
  cancelled: boolean;
  leaseLost: boolean;
}

/**
 * Watches the task's lease while its run goes on: cancelled from elsewhere, the run stops at its
 * next step boundary; taken over by another worker (this process was paused or starved past its
 * lease), it stops here instead of running twice.
 */
function watchTask(
  deps: WorkerDeps,
  watched: { task: Task; lease: TaskLease; control: RunControl },
): { verdict: () => LeaseVerdict; stop: () => void } {
  const { task, lease, control } = watched;
  const verdict: LeaseVerdict = { cancelled: false, leaseLost: false };
  const stop = watchLease(lease, {
    intervalMs: deps.leases.watchIntervalMs,
    onLost: (state) => {
      verdict.cancelled = true;
      if (state === 'cancelled' || state === 'stopped') {
        deps.notices.notice(`■ the task "${task.title}" was ${state}; stopping it at the next step boundary`);
        control.stop();
        return;
      }
      verdict.leaseLost = true;
      const lost = leaseLostNotice({
        title: task.title,
        owner: lease.owner,
        now: lease.lastSeen,
        leaseMs: deps.leases.leaseMs,
      });
      deps.notices.notice(lost.notice);
      control.stop(lost.stopReason);
    },
  });
  return { verdict: () => ({ ...verdict }), stop };
}

/** Runs the agent on a claimed task: a new run of its goal, or its session continued. */
async function runClaimed(deps: WorkerDeps, claimed: ClaimedTask, run: OpenedRun): Promise<RunResult> {
  const { task, sessionId, goal, choice } = claimed;
  if (claimed.continuing)
    return continueSession(deps.store, {
      sessionId,
      goal,
      ownTaskId: task.id,
      run: run.options,
      plan: choice.settings.plan,
    });
  return runAgent({
    goal,
    history: await loadConversation(deps.store.sessions, sessionId, null, deps.store.images),
    ...(choice.images === undefined ? {} : { images: choice.images }),
    plan: choice.settings.plan,
    ownTaskId: task.id,
    ...run.options,
  });
}

function resultOf(
  sessionId: string,
  result: RunResult,
  verdict: LeaseVerdict,
  token: number | undefined,
): QueueTaskResult {
  return {
    sessionId,
    status: result.status,
    finalAnswer: result.finalAnswer,
    reason: result.reason,
    cancelled: verdict.cancelled,
    ...(verdict.leaseLost ? { leaseLost: true } : {}),
    ...(token === undefined ? {} : { attempt: token }),
  };
}

/**
 * An unexpected error must not leave the task in progress for a later worker to run again
 * blindly: it fails, with the error as its reason, and the error goes on to the user. A task
 * another worker took over meanwhile is not this worker's to fail (the token refuses it).
 */
async function failUnfinished(deps: WorkerDeps, lease: TaskLease, error: unknown): Promise<void> {
  const { tasks } = deps.store;
  if ((await tasks.get(lease.taskId))?.status !== 'in_progress') return;
  await tasks
    .fail(
      lease.taskId,
      `taskweave failed: ${errorMessage(error)}`,
      lease.token === undefined ? {} : { owner: lease.owner, attempt: lease.token },
    )
    .catch(() => undefined);
}
