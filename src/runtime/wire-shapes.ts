import type { ApiPlan, ApiRun, ApiSession, ApiTask } from '../events/api.js';
import type { Run, Task } from '../store/rows.js';
import type { UsageTotal } from '../store/usage-log.js';
import type { SessionSummary } from './books/session-book.js';
import type { TaskTreeNode } from './books/task-board.js';

/**
 * The runtime's records as front ends print and send them (snake_case, like the events): the
 * REST API and the CLI's `--json` output share these shapes.
 */

export function apiSession(summary: SessionSummary): ApiSession {
  const { session } = summary;
  return {
    id: session.id,
    title: session.title,
    goal: session.goal,
    model: session.model,
    status: summary.status,
    run_count: summary.runCount,
    input_tokens: summary.inputTokens,
    output_tokens: summary.outputTokens,
    cost: summary.cost,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

export function apiRun(run: Run): ApiRun {
  return {
    id: run.id,
    goal: run.goal,
    mode: run.mode,
    status: run.status,
    final_answer: run.finalAnswer,
    steps: run.steps,
    input_tokens: run.inputTokens,
    output_tokens: run.outputTokens,
    cost: run.cost,
    started_at: run.startedAt,
    ended_at: run.endedAt,
  };
}

/** A task as the API sends it; with `usage`, a goal's row carries what its runs used. */
export function apiTask(task: Task | TaskTreeNode, usage?: ReadonlyMap<string, UsageTotal>): ApiTask {
  const shape: ApiTask = {
    id: task.id,
    session_id: task.sessionId,
    plan_id: task.planId,
    queue: task.queue,
    key: task.key,
    title: task.title,
    description: task.description,
    check_command: task.checkCommand,
    status: task.status,
    sequence: task.sequence,
    attempts: task.attempts,
    result_summary: task.resultSummary,
    fail_reason: task.failReason,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
  if ('tasks' in task && task.tasks !== undefined) shape.tasks = task.tasks.map((child) => apiTask(child));
  const used = usage?.get(task.id);
  if (used !== undefined)
    shape.usage = {
      runs: used.runs,
      input_tokens: used.inputTokens,
      output_tokens: used.outputTokens,
      cost: used.cost,
    };
  return shape;
}

/** A plan with its tasks and their dependencies (by the plan's keys). */
export function apiPlan(input: {
  plan: { id: string; sessionId: string; runId: string; status: ApiPlan['status']; feedback: string | null };
  tasks: (Task & { dependsOn: string[] })[];
}): ApiPlan {
  const { plan, tasks } = input;
  return {
    id: plan.id,
    session_id: plan.sessionId,
    run_id: plan.runId,
    status: plan.status,
    feedback: plan.feedback,
    tasks: tasks.map((task) => ({ ...apiTask(task), depends_on: task.dependsOn })),
  };
}
