import type { Store } from '../../store/ports.js';
import type { Run } from '../../store/rows.js';

/** Task statuses that leave nothing to do in a plan. */
const DONE_STATUSES = new Set(['completed', 'skipped', 'cancelled']);

/**
 * The plan whose tasks are all done but whose run never gave its final answer (the process was
 * killed between the plan's last task and the answer): a resumed session asks for the final
 * answer of this plan instead of starting the goal over. `runs` are the session's runs before
 * the interrupted ones are closed. A plan qualifies when its run and every run after it (the
 * resumed runs of the same goal) ended without an answer: interrupted, or stopped by an earlier
 * resume that was itself killed.
 */
export async function planAwaitingAnswer(
  store: Store,
  options: { sessionId: string; runs: readonly Run[] },
): Promise<string | undefined> {
  const plan = await store.plans.lastPlan(options.sessionId);
  if (!plan || (plan.status !== 'approved' && plan.status !== 'completed')) return undefined;
  const from = options.runs.findIndex((run) => run.id === plan.runId);
  if (from < 0) return undefined;
  const since = options.runs.slice(from);
  const goal = since[0]?.goal;
  const unanswered = since.every(
    (run) =>
      (run.status === 'running' || run.status === 'stopped') && run.finalAnswer === null && run.goal === goal,
  );
  if (!unanswered || since.at(-1)?.status !== 'running') return undefined;
  const tasks = await store.plans.planTasks(plan.id);
  return tasks.every((task) => DONE_STATUSES.has(task.status)) ? plan.id : undefined;
}
