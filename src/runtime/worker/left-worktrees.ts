import type { Store } from '../../store/ports.js';
import { FINISHED_TASK_STATUSES } from '../../store/task-changes.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Whether nobody will continue a goal (a plan id): its plan ended (completed, aborted, rejected),
 * or every goal queued in its session is finished (cancelled, completed, skipped) while the plan
 * was left going on, as a killed worker leaves it. A goal this store does not know is not ours
 * to end.
 */
export async function goalIsOver(store: Store, goalId: string): Promise<boolean> {
  const plan = await store.plans.getPlan(goalId);
  if (!plan) return false;
  if (plan.status !== 'proposed' && plan.status !== 'approved') return true;
  const goals = (await store.tasks.listAll({ sessionId: plan.sessionId })).filter(
    (task) => task.planId === null,
  );
  return goals.length > 0 && goals.every((task) => FINISHED_TASK_STATUSES.includes(task.status));
}

/**
 * At a worker's start: the worktrees a killed process left for goals nobody will continue are
 * reclaimed (idle for the next goals, or removed), and said so. A goal that will be resumed keeps
 * its worktrees: its tasks continue in them. Never throws: a failure is said, and the worker starts.
 */
export async function reclaimLeftWorktrees(
  deps: Pick<WorkerDeps, 'store' | 'runs' | 'notices'>,
): Promise<void> {
  let reclaimed: number;
  try {
    reclaimed = await deps.runs.reclaimWorktrees((goalId) => goalIsOver(deps.store, goalId));
  } catch (error) {
    // Tidying is not the worker's job to fail on: it starts, and says what could not be done.
    deps.notices.notice(
      `could not reclaim the worktrees a stopped worker left: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  if (reclaimed > 0)
    deps.notices.notice(
      `reclaimed ${reclaimed} worktree${reclaimed === 1 ? '' : 's'} of goals a stopped worker left (kept idle for the next goals)`,
    );
}
