import { type PlanTask as GraphTask, validatePlan } from '../plan/task-graph.js';
import { newId } from './ids.js';
import type { Plan, Task } from './rows.js';
import { TaskStoreError } from './store-errors.js';
import type { PlanStatus } from './vocabulary.js';

/*
 * Plans as a port: a proposed graph of tasks, its approval, and its tasks' states; and the rules
 * every dialect's createPlan and setPlanStatus keep, written once.
 */

/** One task of a plan to store. */
export interface PlanTaskInput {
  /** The plan's own id for the task (`t1`), used by the other tasks' `dependsOn`. */
  key: string;
  title: string;
  description: string;
  dependsOn: readonly string[];
  /** A shell command whose success shows the task is done. */
  check?: string;
}

/** A plan to store, with its tasks in order. */
export interface CreatePlanInput {
  sessionId: string;
  runId: string;
  tasks: readonly PlanTaskInput[];
  /** Defaults to the plan's own queue (planQueue), so `taskweave work` never picks plan tasks up. */
  queue?: string;
}

/** A task of a plan with the keys of the tasks it depends on. */
export type PlanTask = Task & { dependsOn: string[] };

/** Plans: a proposed graph of tasks, its approval, and its tasks' states. */
export interface PlanStore {
  /**
   * Stores a plan (status proposed) and its tasks in one transaction, in the given order, each
   * task's `dependsOn` keys turned into dependency rows. Refuses a plan checkPlan refuses.
   */
  createPlan(input: CreatePlanInput): Promise<{ plan: Plan; tasks: PlanTask[] }>;
  /** The plan, or undefined for an unknown id. */
  getPlan(id: string): Promise<Plan | undefined>;
  /** The newest plan of a session, whatever its status (undefined when it has none). */
  lastPlan(sessionId: string): Promise<Plan | undefined>;
  /**
   * Moves a plan along (PLAN_STATUS_FROM); a rejected plan's tasks are cancelled with it in the
   * same transaction.
   */
  setPlanStatus(planId: string, status: PlanStatus, feedback?: string): Promise<Plan>;
  /** Approved plans that still have a task to finish, of one session or of all, newest first. */
  unfinishedPlans(sessionId?: string): Promise<Plan[]>;
  /** The tasks of a plan in order, each row whole, with the keys of the tasks it depends on. */
  planTasks(planId: string): Promise<PlanTask[]>;
}

/** The statuses a plan may move to each status from. */
export const PLAN_STATUS_FROM: Record<PlanStatus, readonly PlanStatus[]> = {
  proposed: [],
  approved: ['proposed'],
  rejected: ['proposed'],
  completed: ['approved'],
  aborted: ['proposed', 'approved'],
};

/**
 * Refuses a plan whose tasks do not form a graph: two tasks with one key, a dependency on a key
 * not in the plan (said in the store's words), and then whatever else plan/'s validatePlan finds
 * (a task depending on itself, a cycle, too many tasks). A plan of no tasks is stored as it is.
 */
export function checkPlan(tasks: readonly PlanTaskInput[]): void {
  const keys = new Set<string>();
  for (const task of tasks) {
    if (keys.has(task.key))
      throw new TaskStoreError(`The plan has two tasks with the key ${task.key}.`, { id: task.key });
    keys.add(task.key);
  }
  for (const task of tasks) {
    for (const key of task.dependsOn) {
      if (!keys.has(key)) {
        throw new TaskStoreError(
          `Task ${task.key} of the plan depends on ${key}, which is not in the plan.`,
          {
            id: task.key,
          },
        );
      }
    }
  }
  if (tasks.length === 0) return;
  const graph = validatePlan(
    tasks.map(
      (task): GraphTask => ({
        id: task.key,
        title: task.title,
        description: task.description,
        depends_on: [...task.dependsOn],
      }),
    ),
  );
  if (!graph.ok)
    throw new TaskStoreError(`The plan is not a valid graph: ${graph.errors.join(' ')}`, {
      id: tasks[0]!.key,
    });
}

/** The row a new plan is stored as: proposed, now. */
export function newPlanRow(input: Pick<CreatePlanInput, 'sessionId' | 'runId'>, now: number): Plan {
  return {
    id: newId('plan'),
    sessionId: input.sessionId,
    runId: input.runId,
    status: 'proposed',
    feedback: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The keys a plan task depends on, each once, in the order given. */
export function dependencyKeys(task: Pick<PlanTaskInput, 'dependsOn'>): string[] {
  return [...new Set(task.dependsOn)];
}

/** The refusal of a plan status change its current status does not allow. */
export function planStatusRefusal(
  plan: Plan | undefined,
  planId: string,
  status: PlanStatus,
): TaskStoreError {
  if (plan === undefined)
    return new TaskStoreError(`There is no plan with the id ${planId}.`, { id: planId });
  return new TaskStoreError(`Cannot mark plan ${planId} ${status}: it is ${plan.status}.`, {
    id: planId,
    status: plan.status,
  });
}
