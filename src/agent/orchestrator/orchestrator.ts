import type { EventPayload } from '../../events/registry.js';
import { PlanScheduler, type SchedulerResult } from '../../plan/scheduler.js';
import type { TaskGraph, TaskState } from '../../plan/task-graph.js';
import type { CompletedTask } from '../../prompts/task-prompt.js';
import { fillSection } from '../../prompts/template.js';
import { ToolRegistry } from '../../tools/registry.js';
import { runStepLoop } from '../loop/driver.js';
import { findEffect } from '../loop/effects.js';
import type { LoopOutcome, NextStep } from '../loop/step.js';
import type { Conversation, RunContext } from '../state/run-state.js';
import { finalAnswerTool } from './control-tools.js';
import { openGoalWorktrees } from './goal-isolation.js';
import { PlanRun } from './plan-run.js';
import { planActionsTool } from './plan-tool.js';
import { runPlanTask } from './task-runner.js';

/** The template of the orchestrator's requests around a plan (src/prompts/plan-turns.md). */
const PLAN_TURNS = 'plan-turns';

/** How one plan ended: all done, the user chose to revise, or the run must end. */
export type PlanResult =
  /** `goal`: the goal id when the tasks ran in worktrees (its branch holds the whole change). */
  | { kind: 'done'; goal?: string }
  | { kind: 'revise'; plan: PlanRun; result: SchedulerResult }
  | Extract<LoopOutcome, { kind: 'interruption' }>;

/**
 * Runs an approved plan: tasks whose dependencies are done start at once (up to the
 * concurrency), each worked by its own loop; failures block dependents and the user (or the
 * non-interactive policy) decides: retry, skip, revise or abort.
 */
export async function runPlan(
  run: RunContext,
  options: {
    goal: string;
    planId: string;
    graph: TaskGraph;
    completed: CompletedTask[];
    /** States from the store when a plan resumes; in_progress tasks continue their conversation. */
    initialState?: ReadonlyMap<string, TaskState>;
    /** The plan this one revises: in worktrees, its goal branch is continued. */
    continues?: string;
  },
): Promise<PlanResult> {
  const worktrees = await openGoalWorktrees(run, options);
  const plan = new PlanRun({ run, ...options, worktrees });
  const scheduler = new PlanScheduler({
    graph: options.graph,
    initialState: options.initialState,
    concurrency: run.planOptions.concurrency,
    runTask: (task, signal, mode) => runPlanTask(plan, task, signal, mode),
    onFailure: (info) => run.control.decideFailure(info, plan.signal),
    onStateChange: (id, state, detail) => announce(plan, id, state, detail),
  });
  const result = await scheduler.run(plan.signal);
  // The goal ends (worktrees go; failed tasks' branches stay to look at) unless the run was
  // stopped: `resume` continues in the same worktrees.
  if (result.status !== 'stopped') await worktrees?.end();
  switch (result.status) {
    case 'completed':
      await run.records.endPlan(options.planId, 'completed');
      return { kind: 'done', goal: worktrees?.goalId };
    case 'revise':
      await run.records.endPlan(options.planId, 'aborted');
      return { kind: 'revise', plan, result };
    case 'aborted': {
      await run.records.endPlan(options.planId, 'aborted');
      const failed = [...result.outcomes.entries()].find(([, outcome]) => outcome.status === 'failed');
      const reason =
        failed && failed[1].status === 'failed' ? ` after task ${failed[0]} failed: ${failed[1].reason}` : '';
      return {
        kind: 'interruption',
        status: 'failed',
        reason: `The plan was aborted${reason}`.replace(/\.?$/, '.'),
        ...(failed?.[1].status === 'failed' && failed[1].refused ? { refused: true } : {}),
      };
    }
    case 'stopped':
      if (plan.interrupted) return plan.interrupted;
      run.emit({ type: 'agent_update', update_type: 'agent_stopped', step: run.steps });
      return { kind: 'interruption', status: 'stopped', reason: 'Stopped by the user.' };
  }
}

function announce(plan: PlanRun, id: string, state: TaskState, detail: string | undefined): void {
  plan.states.set(id, state);
  const task = plan.graph.get(id);
  if (state === 'completed' && task) plan.completed.push({ id, title: task.title, summary: detail ?? '' });
  const { run } = plan;
  // Written, then announced, in order with the run's other writes; a failed write is kept by the
  // journal and ends the run at its next step.
  run.records
    .taskState(
      run.runId,
      { planId: plan.planId, key: id, state, detail },
      task && taskEvent(id, task.title, state, detail),
    )
    .catch(() => {});
}

function taskEvent(
  id: string,
  title: string,
  state: TaskState,
  detail: string | undefined,
): EventPayload | undefined {
  const base = { type: 'agent_update' as const, task_id: id, title };
  switch (state) {
    case 'in_progress':
      return { ...base, update_type: 'task_started' };
    case 'completed':
      return { ...base, update_type: 'task_completed', summary: detail ?? '' };
    case 'failed':
      return { ...base, update_type: 'task_failed', reason: detail ?? 'failed' };
    case 'blocked':
      return { ...base, update_type: 'task_blocked', reason: detail ?? 'a dependency failed' };
    case 'skipped':
      return { ...base, update_type: 'task_skipped' };
    default:
      return undefined;
  }
}

/** Asks the model for the final answer once every task is done, with all task summaries. */
export async function finalAnswer(
  run: RunContext,
  goal: string,
  completed: CompletedTask[],
): Promise<LoopOutcome> {
  const registry = new ToolRegistry([
    finalAnswerTool(() => ({ accepted: true, message: fillSection(PLAN_TURNS, 'final-answer-accepted') })),
  ]);
  const summaries = completed.map((task) => `- Task ${task.id} (${task.title}): ${task.summary}`).join('\n');
  const conversation: Conversation = {
    system: run.systemPrompt('final'),
    messages: [
      {
        role: 'user',
        content: fillSection(PLAN_TURNS, 'final-answer', {
          goal,
          summaries,
          count: String(completed.length),
        }),
      },
    ],
  };
  return runStepLoop({
    run,
    conversation,
    registry,
    // One request for one control call: the tool-first step whatever the run's loop, since a
    // Reason and an Observe around it would add calls and nothing to decide.
    loop: 'react',
    decide: ({ reply, executed }): NextStep => {
      const accepted = findEffect({ executed }, 'final_answer');
      if (accepted) return { kind: 'final', answer: accepted.answer };
      if (reply.toolCalls.length === 0 && reply.text.trim() !== '')
        return { kind: 'final', answer: reply.text.trim() };
      return { kind: 'run_again' };
    },
  });
}

/**
 * The user chose to revise after a failure: the model gets the state of the plan and proposes
 * a plan for the rest, which goes through approval again.
 */
export async function revisePlan(
  run: RunContext,
  goal: string,
  previous: PlanRun,
  result: SchedulerResult,
): Promise<LoopOutcome> {
  const registry = new ToolRegistry([...run.tools, planActionsTool(run)]);
  const lines = previous.graph.tasks.map((task) => {
    const state = previous.states.get(task.id) ?? 'pending';
    const outcome = result.outcomes.get(task.id);
    const why = state === 'failed' && outcome?.status === 'failed' ? ` (failed: ${outcome.reason})` : '';
    return `- ${task.id} [${state}] ${task.title} — ${task.description}${why}`;
  });
  const done = previous.completed.map((task) => `- ${task.id}: ${task.summary}`).join('\n') || '(none)';
  const state = { goal, plan: lines.join('\n'), done };
  const conversation: Conversation = {
    system: run.systemPrompt('planning'),
    messages: [
      {
        role: 'user',
        content: result.feedback
          ? fillSection(PLAN_TURNS, 'revise-plan-with-feedback', { ...state, feedback: result.feedback })
          : fillSection(PLAN_TURNS, 'revise-plan', state),
      },
    ],
  };
  return runStepLoop({
    run,
    conversation,
    registry,
    phase: 'plan',
    // The model is made to call plan_actions: as for the final answer, the tool-first step.
    loop: 'react',
    firstToolChoice: { type: 'tool', toolName: 'plan_actions' },
    decide: (step): NextStep => {
      const approved = findEffect(step, 'plan_approved');
      return approved
        ? { kind: 'plan', planId: approved.planId, graph: approved.graph }
        : { kind: 'run_again' };
    },
  });
}
