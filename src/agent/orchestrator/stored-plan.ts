import { type TaskGraph, type TaskState, validatePlan } from '../../plan/task-graph.js';
import type { CompletedTask } from '../../prompts/task-prompt.js';
import type { Store } from '../../store/ports.js';

/** A plan read back from the store to continue it. */
export interface StoredPlan {
  planId: string;
  goal: string;
  graph: TaskGraph;
  states: Map<string, TaskState>;
  completed: CompletedTask[];
  /** The plan's task keys → the store's task ids. */
  taskIds: Map<string, string>;
}

import type { TaskStatus } from '../../store/vocabulary.js';

const RESUMED_STATES: Record<TaskStatus, TaskState> = {
  pending: 'pending',
  // Interrupted: the task runs again, continuing its saved conversation.
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'failed',
  // The scheduler blocks dependents of failed tasks again itself.
  blocked: 'pending',
  skipped: 'skipped',
  // A plan task cancelled by hand (`tasks cancel`) is not run: the plan goes on without it.
  cancelled: 'skipped',
  // Stopped by the user: continuing the plan runs it again.
  stopped: 'pending',
};

/** Reads an unfinished plan back from the store, ready for resumePlan. */
export async function loadStoredPlan(store: Store, planId: string): Promise<StoredPlan> {
  const plan = await store.plans.getPlan(planId);
  if (!plan) throw new Error(`There is no plan with the id ${planId}.`);
  const rows = await store.plans.planTasks(planId);
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
    goal:
      (await store.sessions.getRun(plan.runId))?.goal ??
      (await store.sessions.getSession(plan.sessionId))?.goal ??
      '',
    graph: validation.graph,
    states: new Map(rows.map((row) => [row.key ?? row.id, RESUMED_STATES[row.status]])),
    completed,
    taskIds: new Map(rows.map((row) => [row.key ?? row.id, row.id])),
  };
}
