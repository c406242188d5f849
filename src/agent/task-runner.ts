import type { ModelMessage } from 'ai';
import type { TaskOutcome } from '../plan/scheduler.js';
import type { PlanTask } from '../plan/task-graph.js';
import { buildSystemPrompt } from '../prompts/system-prompt.js';
import { buildTaskPrompt, type TaskToolResult } from '../prompts/task-prompt.js';
import { FileTracker } from '../tools/file-tracker.js';
import { ToolRegistry } from '../tools/registry.js';
import { formatArgs } from '../util/format-args.js';
import { failTaskTool, finalAnswerTool, taskCompletedTool } from './control-tools.js';
import { executeTools } from './execute-tools.js';
import { runStepLoop } from './loop/driver.js';
import { findEffect } from './loop/effects.js';
import type { NextStep, Step } from './loop/step.js';
import { addNote } from './notes.js';
import type { PlanRun } from './plan-run.js';
import type { Conversation } from './run-state.js';

const CONTROL_TOOLS = new Set(['task_completed', 'fail_task', 'final_answer']);

/** Replies in a row without any tool call before a task is failed: the model stopped working on it. */
export const IDLE_REPLY_LIMIT = 3;

/**
 * Works one task of a plan with the step loop, in its own conversation built from the
 * task-tracking prompt, until the model closes it (task_completed, and the check passes) or
 * gives up (fail_task, or the recovery rules).
 */
export async function runPlanTask(plan: PlanRun, task: PlanTask, signal: AbortSignal): Promise<TaskOutcome> {
  const { run } = plan;
  const registry = new ToolRegistry([
    ...run.tools,
    taskCompletedTool(),
    failTaskTool(),
    finalAnswerTool((answer) => plan.considerFinalAnswer(answer, task.id)),
  ]);
  // Per task: a file another task wrote since this one read it must be read again before an edit.
  const files = new FileTracker();
  const saved = plan.takeSavedConversation(task.id);
  const toolResults: TaskToolResult[] = toolResultsIn(saved);
  const conversation: Conversation = {
    system: buildSystemPrompt({ workspace: run.workspace.root, tools: registry.list(), mode: 'task' }),
    // The first message is the task prompt, rebuilt before every step and never stored.
    messages: [{ role: 'user', content: '' }, ...saved],
    saved: 1 + saved.length,
    planId: plan.planId,
    taskId: task.id,
  };
  let idleReplies = 0;
  let checkRuns = 0;

  const decide = async (step: Step): Promise<NextStep> => {
    const { reply, executed } = step;
    for (const { call, result } of executed) {
      toolResults.push({
        call: `${call.name}(${formatArgs(call.args)})`,
        isError: result.isError,
        output: result.output,
      });
    }
    const failedTask = findEffect(step, 'task_failed');
    if (failedTask) return { kind: 'task_failed', reason: failedTask.reason };
    const escalation = await plan.escalateRefusals();
    if (escalation && 'outcome' in escalation) return escalation.outcome;
    if (escalation)
      addNote(run, conversation, { step: run.steps, taskId: task.id, content: escalation.note });
    const completed = findEffect(step, 'task_completed');
    if (completed) {
      const { summary } = completed;
      const failed = executed.filter(({ call, result }) => result.isError && !CONTROL_TOOLS.has(call.name));
      if (failed.length > 0) {
        addNote(run, conversation, {
          step: run.steps,
          taskId: task.id,
          content: `The task was not closed: ${failed.map(({ call }) => `${call.name}(${formatArgs(call.args)})`).join(', ')} failed in the same reply. Fix that first, then call task_completed again.`,
        });
        return { kind: 'run_again' };
      }
      if (!task.check) return { kind: 'task_completed', summary };
      checkRuns += 1;
      const [check] = await executeTools({
        calls: [{ id: `check-${task.id}-${checkRuns}`, name: 'run_command', args: { command: task.check } }],
        registry,
        contextFor: (call) => plan.toolContext(call, { taskId: task.id, signal, files }),
        emit: run.emit,
        step: run.steps,
        taskId: task.id,
        signal,
      });
      if (check && !check.result.isError) return { kind: 'task_completed', summary };
      addNote(run, conversation, {
        step: run.steps,
        taskId: task.id,
        content: `The task's check \`${task.check}\` failed, so the task is not done yet:\n${check?.result.output ?? 'not run'}\nFix the cause, then call task_completed again.`,
      });
      return { kind: 'run_again' };
    }
    if (reply.toolCalls.length === 0) {
      idleReplies += 1;
      if (idleReplies >= IDLE_REPLY_LIMIT) {
        return {
          kind: 'task_failed',
          reason: `The model replied ${IDLE_REPLY_LIMIT} times without working on the task or closing it.`,
        };
      }
      addNote(run, conversation, {
        step: run.steps,
        taskId: task.id,
        content:
          'You replied without calling a tool. Go on with the current task using the tools, or call task_completed with a summary if it is done.',
      });
      return { kind: 'run_again' };
    }
    idleReplies = 0;
    if (step.phases.observe?.shouldContinue === false) {
      // In a plan the orchestrator's rules end a task, not the model's verdict: it only nudges.
      addNote(run, conversation, {
        step: run.steps,
        taskId: task.id,
        content:
          'Your observation says the current task is done, but it is still open: call task_completed with a summary (or fail_task) in the next step.',
      });
    }
    return { kind: 'run_again' };
  };

  const outcome = await runStepLoop({
    run,
    conversation,
    registry,
    signal,
    files,
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
      return { status: 'completed', summary: outcome.summary };
    case 'task_failed':
      return { status: 'failed', reason: outcome.reason };
    case 'interruption':
      // The recovery rules giving up fails the task; anything else ends the whole run.
      if (outcome.status === 'failed') return { status: 'failed', reason: outcome.reason };
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
          output:
            'value' in output
              ? String(typeof output.value === 'string' ? output.value : JSON.stringify(output.value))
              : '',
        });
      }
    }
  }
  return results;
}
