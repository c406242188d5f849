import type { ApiPlan, ApiRun, ApiSession, ApiTask } from '../events/api.js';
import type { Run, Task } from '../store/schema.js';
import type { SessionSummary } from './session-book.js';
import type { TaskTreeNode } from './task-board.js';

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
    started_at: run.startedAt,
    ended_at: run.endedAt,
  };
}

export function apiTask(task: Task | TaskTreeNode): ApiTask {
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
  if ('tasks' in task && task.tasks !== undefined) shape.tasks = task.tasks.map(apiTask);
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
