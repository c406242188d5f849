import type { ModelMessage } from 'ai';
import type { TaskOutcome, TaskRunMode } from '../../plan/scheduler.js';
import type { PlanTask } from '../../plan/task-graph.js';
import { systemPrompts } from '../../prompts/system-prompt.js';
import { buildTaskPrompt, type TaskToolResult } from '../../prompts/task-prompt.js';
import { fillSection } from '../../prompts/template.js';
import { FileTracker } from '../../tools/file-tracker.js';
import { ToolRegistry } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/index.js';
import { formatArgs } from '../../util/format-args.js';
import { runStepLoop } from '../loop/driver.js';
import type { Step } from '../loop/step.js';
import type { Conversation } from '../state/run-state.js';
import { failTaskTool, finalAnswerTool, taskCompletedTool } from './control-tools.js';
import type { PlanRun } from './plan-run.js';
import { taskStepDecider } from './task-step-decider.js';
import {
  beginResolve,
  commitTaskStep,
  enterWorktree,
  MERGE_CONFLICT,
  mergeCompletedTask,
} from './task-worktree.js';

/**
 * Works one task of a plan with the step loop, in its own conversation built from the
 * task-tracking prompt, until the model closes it (task_completed, and the check passes) or
 * gives up (fail_task, or the recovery rules). `mode.resolve`: the user chose to resolve the
 * task's merge conflict; it goes on in its worktree with the goal branch merged in.
 */
export async function runPlanTask(
  plan: PlanRun,
  task: PlanTask,
  signal: AbortSignal,
  mode: TaskRunMode = { resolve: false },
): Promise<TaskOutcome> {
  const { run } = plan;
  const registry = new ToolRegistry([
    ...run.tools,
    taskCompletedTool({ current: task, planTaskIds: plan.graph.tasks.map((other) => other.id) }),
    failTaskTool(),
    finalAnswerTool((answer, step) => plan.considerFinalAnswer(answer, { taskId: task.id, step })),
  ]);
  // Per task: a file another task wrote since this one read it must be read again before an edit.
  const files = new FileTracker();
  const saved = await plan.takeSavedConversation(task.id);
  const goal = plan.worktrees;
  let workspace: Workspace | undefined;
  const resolving = goal !== undefined && mode.resolve;
  if (goal) {
    // A task continued after a crash, or resolving its conflict, keeps its worktree; a start or a
    // retry gets a fresh one.
    const entered = await enterWorktree(plan, goal, task, {
      fresh: saved.length === 0 && !resolving,
      registry,
      signal,
      files,
    });
    if ('failed' in entered) return { status: 'failed', reason: entered.failed };
    workspace = entered.workspace;
  }
  const toolResults: TaskToolResult[] = toolResultsIn(saved);
  const conversation: Conversation = {
    // In a worktree the prompt names the worktree: paths of the main checkout are outside it.
    system: workspace ? systemPrompts({ workspace: workspace.root })('task') : run.systemPrompt('task'),
    // The first message is the task prompt, rebuilt before every step and never stored.
    messages: [{ role: 'user', content: '' }, ...saved],
    saved: 1 + saved.length,
    goal: plan.goal,
    planId: plan.planId,
    taskId: task.id,
  };
  if (goal && resolving) {
    try {
      await beginResolve(plan, goal, task, conversation);
    } catch (error) {
      return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }
  const decideStep = taskStepDecider({
    plan,
    task,
    conversation,
    registry,
    signal,
    files,
    toolResults,
    workspace,
    // A conflict being resolved closes only once no marker is left and the merge is committed.
    beforeClose: goal
      ? async () => {
          if (!goal.isResolving(task.id)) return undefined;
          const left = await goal.unresolvedFiles(task.id);
          if (left.length > 0) return fillSection(MERGE_CONFLICT, 'markers-left', { files: left.join(', ') });
          await goal.commitStep(task.id, `taskweave: ${task.id} resolves the conflict`);
          return undefined;
        }
      : undefined,
  });
  // In a worktree each step that changed something is a commit (before the check runs on it).
  const decide = goal
    ? async (step: Step) => {
        await commitTaskStep(goal, task, step, registry);
        return decideStep(step);
      }
    : decideStep;

  const outcome = await runStepLoop({
    run,
    conversation,
    registry,
    signal,
    files,
    workspace,
    taskId: task.id,
    refresh: (current) => {
      current.messages[0] = {
        role: 'user',
        content: buildTaskPrompt({
          goal: plan.goal,
          tasks: plan.graph.tasks,
          states: plan.states,
          current: task,
          completed: plan.completed,
          toolResults,
        }),
      };
    },
    decide,
  });
  switch (outcome.kind) {
    case 'task_completed':
      if (goal) return mergeCompletedTask(plan, goal, task, outcome.summary);
      return { status: 'completed', summary: outcome.summary };
    case 'task_failed':
      return { status: 'failed', reason: outcome.reason };
    case 'interruption':
      // The recovery rules giving up fails the task; anything else ends the whole run.
      if (outcome.status === 'failed')
        return { status: 'failed', reason: outcome.reason, ...(outcome.refused ? { refused: true } : {}) };
      plan.interrupt(outcome);
      return { status: 'failed', reason: outcome.reason };
    default:
      return { status: 'failed', reason: `Unexpected end of the task loop (${outcome.kind}).` };
  }
}

/** The TOOL RESULTS lines of a conversation saved by an interrupted run. */
function toolResultsIn(messages: ModelMessage[]): TaskToolResult[] {
  const calls = new Map<string, { name: string; args: unknown }>();
  const results: TaskToolResult[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'tool-call') calls.set(part.toolCallId, { name: part.toolName, args: part.input });
      }
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = calls.get(part.toolCallId);
        const output = part.output;
        results.push({
          call: `${part.toolName}(${formatArgs(call?.args)})`,
          isError: output.type === 'error-text' || output.type === 'error-json',
          // An image in the output (read_file) is left out: its text names it.
          output:
            output.type === 'content'
              ? output.value.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n')
              : 'value' in output
                ? String(typeof output.value === 'string' ? output.value : JSON.stringify(output.value))
                : '',
        });
      }
    }
  }
  return results;
}
