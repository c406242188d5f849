import { type PlanTask, type TaskState, validatePlan } from '../plan/task-graph.js';
import type { AgentUpdateOf, ServerEvent } from './registry.js';
import { addTokens, append, settleFailures, updateItems } from './session-view-items.js';
import type { PlanNodeView, PlanView, SessionView, TokenCount } from './session-view-types.js';

/** The plan and plan-task updates, folded into `plans` (and a line in the conversation). */
export type PlanUpdate = AgentUpdateOf<
  | 'plan_proposed'
  | 'plan_approved'
  | 'plan_rejected'
  | 'plan_resumed'
  | 'task_started'
  | 'task_completed'
  | 'task_failed'
  | 'task_blocked'
  | 'task_skipped'
>;

type Stamped<T> = T & Pick<ServerEvent, 'run_id' | 'ts'>;

/** States a task keeps until the run moves it (a blocked task waits on one of these). */
const HOLDING_BACK: readonly TaskState[] = ['failed', 'blocked', 'cancelled'];

/** Folds a plan or plan-task update; other updates leave the view as it is. */
export function foldPlanUpdate(view: SessionView, event: Stamped<PlanUpdate>): SessionView {
  const runId = event.run_id;
  switch (event.update_type) {
    case 'plan_proposed':
    case 'plan_resumed': {
      const completed = new Set(event.update_type === 'plan_resumed' ? event.completed : []);
      const plan: PlanView = {
        planId: event.plan_id,
        runId,
        tasks: event.tasks,
        status: event.update_type === 'plan_resumed' ? 'resumed' : 'proposed',
        nodes: Object.fromEntries(
          event.tasks.map((task) => [task.id, { state: completed.has(task.id) ? 'completed' : 'pending' }]),
        ),
        criticalPath: criticalPathOf(event.tasks),
        proposedAt: event.ts,
      };
      const withPlan = { ...view, plans: [...view.plans.filter((p) => p.planId !== plan.planId), plan] };
      return settleFailures(
        append(withPlan, { kind: 'plan', id: `plan:${plan.planId}`, runId, planId: plan.planId }),
        runId,
      );
    }
    case 'plan_approved':
      return updatePlan(view, event.plan_id, (plan) => ({ ...plan, status: 'approved' }));
    case 'plan_rejected':
      return updatePlan(view, event.plan_id, (plan) => ({
        ...plan,
        status: 'rejected',
        feedback: event.feedback,
      }));
    case 'task_started':
      return taskEvent(view, event, 'in_progress', undefined);
    case 'task_completed':
      return taskEvent(view, event, 'completed', event.summary);
    case 'task_failed':
      return taskEvent(view, event, 'failed', event.reason);
    case 'task_blocked':
      return taskEvent(view, event, 'blocked', event.reason);
    case 'task_skipped':
      return taskEvent(view, event, 'skipped', undefined);
  }
}

/** The title of a task of the run's latest plan that has it, else its id. */
export function planTaskTitle(view: SessionView, runId: string, taskId: string): string {
  return planOfTask(view, runId, taskId)?.tasks.find((task) => task.id === taskId)?.title ?? taskId;
}

/** Adds a model call's tokens (and cost) to the plan task it was made for. */
export function addTaskUsage(
  view: SessionView,
  runId: string,
  taskId: string,
  usage: TokenCount,
): SessionView {
  const plan = planOfTask(view, runId, taskId);
  if (plan === undefined) return view;
  return updatePlan(view, plan.planId, (current) => {
    const node = current.nodes[taskId];
    if (node === undefined) return current;
    const counted = { ...node, usage: node.usage ? addTokens(node.usage, usage) : usage };
    return { ...current, nodes: { ...current.nodes, [taskId]: counted } };
  });
}

function planOfTask(view: SessionView, runId: string, taskId: string): PlanView | undefined {
  const has = (plan: PlanView) => plan.status !== 'rejected' && plan.tasks.some((task) => task.id === taskId);
  return view.plans.findLast((plan) => plan.runId === runId && has(plan)) ?? view.plans.findLast(has);
}

function criticalPathOf(tasks: PlanTask[]): string[] {
  const validation = validatePlan(tasks);
  return validation.ok ? validation.graph.criticalPath() : [];
}

function updatePlan(view: SessionView, planId: string, update: (plan: PlanView) => PlanView): SessionView {
  return { ...view, plans: view.plans.map((plan) => (plan.planId === planId ? update(plan) : plan)) };
}

function taskEvent(
  view: SessionView,
  event: Stamped<
    AgentUpdateOf<'task_started' | 'task_completed' | 'task_failed' | 'task_blocked' | 'task_skipped'>
  >,
  state: TaskState,
  detail: string | undefined,
): SessionView {
  const plan = planOfTask(view, event.run_id, event.task_id);
  let next = view;
  if (plan) {
    next = updatePlan(view, plan.planId, (current) => {
      const before = current.nodes[event.task_id];
      const node: PlanNodeView = {
        state,
        startedAt: state === 'in_progress' ? event.ts : before?.startedAt,
        endedAt: state === 'in_progress' ? undefined : event.ts,
        summary: state === 'completed' ? detail : undefined,
        reason: state === 'failed' || state === 'blocked' ? detail : undefined,
        ...(before?.usage ? { usage: before.usage } : {}),
      };
      return { ...current, nodes: unblockFreed(current, { ...current.nodes, [event.task_id]: node }) };
    });
  }
  if (state === 'in_progress' || state === 'skipped') {
    // A retried or skipped task answers the failure decision that was waiting on it.
    next = updateItems(next, (item) =>
      item.kind === 'failure' && item.taskId === event.task_id && !item.settled
        ? { ...item, settled: true }
        : item,
    );
  }
  return append(next, {
    kind: 'task',
    id: `${event.run_id}:task:${event.task_id}:${state}:${event.ts}`,
    runId: event.run_id,
    taskId: event.task_id,
    title: event.title,
    state,
    detail,
    ts: event.ts,
  });
}

/**
 * The run announces blocking but not unblocking: a blocked task none of whose dependencies holds
 * it back any more (its failed dependency was skipped or retried) is pending again.
 */
function unblockFreed(plan: PlanView, nodes: Record<string, PlanNodeView>): Record<string, PlanNodeView> {
  const next = { ...nodes };
  let changed = true;
  while (changed) {
    changed = false;
    for (const task of plan.tasks) {
      if (next[task.id]?.state !== 'blocked') continue;
      const held = task.depends_on.some((id) => HOLDING_BACK.includes(next[id]?.state ?? 'pending'));
      if (!held) {
        next[task.id] = { state: 'pending' };
        changed = true;
      }
    }
  }
  return next;
}
