import type { PlanTask } from '../../plan/task-graph.js';
import type { TaskToolResult } from '../../prompts/task-prompt.js';
import { fillSection } from '../../prompts/template.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/index.js';
import { formatArgs } from '../../util/format-args.js';
import { findEffect } from '../loop/effects.js';
import { executeTools } from '../loop/execute-tools.js';
import type { NextStep, Step } from '../loop/step.js';
import { addNote } from '../state/notes.js';
import type { Conversation } from '../state/run-state.js';
import type { PlanRun } from './plan-run.js';

/** The template of the notes that keep the model on its task (src/prompts/task-notes.md). */
const TASK_NOTES = 'task-notes';

const CONTROL_TOOLS = new Set(['task_completed', 'fail_task', 'final_answer']);

/** Replies in a row without any tool call before a task is failed: the model stopped working on it. */
export const IDLE_REPLY_LIMIT = 3;

/** What the rules of one plan task work with. */
export interface TaskStepContext {
  plan: PlanRun;
  task: PlanTask;
  conversation: Conversation;
  registry: ToolRegistry;
  signal: AbortSignal;
  files: FileTracker;
  /** The task's TOOL RESULTS lines; each step's calls are appended. */
  toolResults: TaskToolResult[];
  /** The task's worktree, where its check runs; the run's workspace when left out. */
  workspace?: Workspace;
  /** Asked before a task closes: a reason it cannot yet (conflict markers left), told to the model. */
  beforeClose?: () => Promise<string | undefined>;
}

/**
 * The orchestrator's rules for the steps of one plan task, as the loop's `decide`: fail_task
 * fails it; task_completed closes it unless a call of the same reply failed or the task's check
 * does not pass; replies without tool calls fail it after IDLE_REPLY_LIMIT in a row; repeated
 * early final answers are escalated to the user. An Observe verdict (roa) only adds a note.
 */
export function taskStepDecider(context: TaskStepContext): (step: Step) => Promise<NextStep> {
  const { plan, task } = context;
  // The step being decided, not run.steps: parallel tasks share that counter.
  let stepIndex = 0;
  const note = (content: string, shown?: string) =>
    addNote(plan.run, context.conversation, { step: stepIndex, taskId: task.id, content, shown });
  let idleReplies = 0;
  let checkRuns = 0;

  const close = async (step: Step, summary: string): Promise<NextStep> => {
    const failed = step.executed.filter(
      ({ call, result }) => result.isError && !CONTROL_TOOLS.has(call.name),
    );
    if (failed.length > 0) {
      note(
        `The task was not closed: ${failed.map(({ call }) => `${call.name}(${formatArgs(call.args)})`).join(', ')} failed in the same reply. Fix that first, then call task_completed again.`,
      );
      return { kind: 'run_again' };
    }
    const notYet = await context.beforeClose?.();
    if (notYet) {
      note(notYet);
      return { kind: 'run_again' };
    }
    if (!task.check) return { kind: 'task_completed', summary };
    checkRuns += 1;
    const [check] = await executeTools({
      calls: [{ id: `check-${task.id}-${checkRuns}`, name: 'run_command', args: { command: task.check } }],
      registry: context.registry,
      contextFor: (call) =>
        plan.toolContext(call, {
          step: step.index,
          taskId: task.id,
          signal: context.signal,
          files: context.files,
          workspace: context.workspace,
        }),
      emit: plan.run.emit,
      step: step.index,
      taskId: task.id,
      signal: context.signal,
      approval: plan.run.approval,
      // A check is a command like any other: the user's hooks see it (and may refuse it).
      hooks: plan.run.hooks,
      check: true,
    });
    if (check && !check.result.isError) return { kind: 'task_completed', summary };
    note(
      `The task's check \`${task.check}\` failed, so the task is not done yet:\n${check?.result.output ?? 'not run'}\nFix the cause, then call task_completed again.`,
      // The user saw the check's call and its last lines as a tool line just above.
      "The task's check failed, so the task is not done yet: it goes on.",
    );
    return { kind: 'run_again' };
  };

  return async (step) => {
    stepIndex = step.index;
    for (const { call, result } of step.executed) {
      context.toolResults.push({
        call: `${call.name}(${formatArgs(call.args)})`,
        isError: result.isError,
        output: result.output,
      });
    }
    const failedTask = findEffect(step, 'task_failed');
    if (failedTask) return { kind: 'task_failed', reason: failedTask.reason };
    const escalation = await plan.escalateRefusals(step.index);
    if (escalation && 'outcome' in escalation) return escalation.outcome;
    if (escalation) note(escalation.note);
    const completed = findEffect(step, 'task_completed');
    if (completed) return close(step, completed.summary);
    if (step.reply.toolCalls.length === 0) {
      idleReplies += 1;
      if (idleReplies >= IDLE_REPLY_LIMIT) {
        return {
          kind: 'task_failed',
          reason: `The model replied ${IDLE_REPLY_LIMIT} times without working on the task or closing it.`,
        };
      }
      note(fillSection(TASK_NOTES, 'no-tool-call'));
      return { kind: 'run_again' };
    }
    idleReplies = 0;
    // In a plan the orchestrator's rules end a task, not the model's verdict: it only nudges.
    if (step.phases.observe?.shouldContinue === false) {
      note(fillSection(TASK_NOTES, 'observed-done'));
    }
    return { kind: 'run_again' };
  };
}
