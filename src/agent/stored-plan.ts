import { type TaskState, validatePlan } from '../plan/task-graph.js';
import type { TaskStatus } from '../store/schema.js';
import type { SessionStore } from '../store/session-store.js';
import type { TaskStore } from '../store/task-store.js';
import type { StoredPlan } from './run-agent.js';

const RESUMED_STATES: Record<TaskStatus, TaskState> = {
  pending: 'pending',
  // Interrupted: the task runs again, continuing its saved conversation.
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'failed',
  // The scheduler blocks dependents of failed tasks again itself.
  blocked: 'pending',
  // Plan tasks are cancelled when the user skips them (or cancels them with `tasks cancel`).
  cancelled: 'skipped',
};

/** Reads an unfinished plan back from the store, ready for resumePlan. */
export function loadStoredPlan(
  stores: { sessions: SessionStore; tasks: TaskStore },
  planId: string,
): StoredPlan {
  const plan = stores.tasks.getPlan(planId);
  if (!plan) throw new Error(`There is no plan with the id ${planId}.`);
  const rows = stores.tasks.planTasks(planId);
  const validation = validatePlan(
    rows.map((row) => ({
      id: row.key ?? row.id,
      title: row.title,
      description: row.description ?? '',
      depends_on: row.dependsOn,
      ...(row.checkCommand ? { check: row.checkCommand } : {}),
    })),
  );
  if (!validation.ok)
    throw new Error(`The stored plan ${planId} is not valid: ${validation.errors.join('; ')}`);
  const completed = rows
    .filter((row) => row.status === 'completed')
    .sort((a, b) => a.updatedAt - b.updatedAt)
    .map((row) => ({ id: row.key ?? row.id, title: row.title, summary: row.resultSummary ?? '' }));
  return {
    planId,
    goal: stores.sessions.getRun(plan.runId)?.goal ?? stores.sessions.getSession(plan.sessionId)?.goal ?? '',
    graph: validation.graph,
    states: new Map(rows.map((row) => [row.key ?? row.id, RESUMED_STATES[row.status]])),
    completed,
    taskIds: new Map(rows.map((row) => [row.key ?? row.id, row.id])),
  };
}
