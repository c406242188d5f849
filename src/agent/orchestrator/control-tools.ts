import { z } from 'zod';
import { fillSection } from '../../prompts/template.js';
import { toolTexts } from '../../prompts/tool-texts.js';
import { builtSchema } from '../../tools/built-schemas.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/types.js';

/** The template of the control tools' model-facing texts (src/prompts/control-tools.md). */
const TEXTS = 'control-tools';

// Module-level schemas: each task gets its own control tools, but their model-facing
// definitions are built once.
// Loose: a task id the model adds on its own (`task_id` or `id`) is kept, to be checked, not
// dropped; it is not advertised, since the tool only ever closes the current task.
const TASK_COMPLETED_PARAMETERS = builtSchema(
  'task_completed',
  z.looseObject({
    summary: z.string().min(1).describe('What was done and how it was verified, in one to three sentences.'),
  }),
);
const FAIL_TASK_PARAMETERS = builtSchema(
  'fail_task',
  z.object({
    reason: z.string().min(1).describe('Why the task cannot be done, concretely.'),
  }),
);
const FINAL_ANSWER_PARAMETERS = builtSchema(
  'final_answer',
  z.object({
    answer: z.string().min(1).describe('The answer for the user.'),
  }),
);

/**
 * The model's control tools in complex mode. Their calls run like any tool (visible as events,
 * validated by the same wrapper); what they mean for the run is the `effect` in their result,
 * which the orchestrator's `decide` reads from the step.
 */

/** The task a task_completed tool closes, and the other tasks of its plan. */
export interface TaskCompletedScope {
  current: { id: string; title: string };
  /** Every task id of the plan, in order (a 1-based number names a task too). */
  planTaskIds: string[];
}

/**
 * `task_completed { summary, task_id? }`: the current task's objective is met. A `task_id` that
 * names another task of the plan, or no task at all, is refused with the current task's id.
 */
export function taskCompletedTool(scope: TaskCompletedScope): Tool {
  return defineTool({
    name: 'task_completed',
    ...toolTexts(TEXTS, 'task-completed'),
    readOnly: true,
    parameters: TASK_COMPLETED_PARAMETERS,
    async execute({ summary, ...extra }) {
      const named = extra.task_id ?? extra.id;
      const refusal =
        typeof named === 'string' || typeof named === 'number'
          ? wrongTaskRefusal(scope, String(named).trim())
          : undefined;
      if (refusal) return { output: refusal, isError: true };
      return {
        output: fillSection(TEXTS, 'task-completed-noted'),
        isError: false,
        effect: { kind: 'task_completed', summary },
      };
    },
  });
}

/** `fail_task { reason }`: the current task cannot be done. */
export function failTaskTool(): Tool {
  return defineTool({
    name: 'fail_task',
    ...toolTexts(TEXTS, 'fail-task'),
    readOnly: true,
    parameters: FAIL_TASK_PARAMETERS,
    async execute({ reason }) {
      return {
        output: fillSection(TEXTS, 'fail-task-noted'),
        isError: false,
        effect: { kind: 'task_failed', reason },
      };
    },
  });
}

/**
 * `final_answer { answer }`: judged by `decide(answer, step)` (`step`: the step of the call),
 * which refuses it while tasks remain; an accepted answer is the call's `final_answer` effect.
 */
export function finalAnswerTool(
  decide: (answer: string, step: number) => { accepted: boolean; message: string },
): Tool {
  return defineTool({
    name: 'final_answer',
    ...toolTexts(TEXTS, 'final-answer'),
    readOnly: true,
    parameters: FINAL_ANSWER_PARAMETERS,
    async execute({ answer }, ctx) {
      const verdict = decide(answer, ctx.step);
      return {
        output: verdict.message,
        isError: false,
        ...(verdict.accepted ? { effect: { kind: 'final_answer' as const, answer } } : {}),
      };
    },
  });
}

/** Why a task_id is refused, or undefined when it names the current task (by id or number). */
function wrongTaskRefusal(scope: TaskCompletedScope, taskId: string): string | undefined {
  const { current, planTaskIds } = scope;
  const number = planTaskIds.indexOf(current.id) + 1;
  if (taskId === current.id || taskId === String(number)) return undefined;
  const named =
    planTaskIds.includes(taskId) ||
    (/^\d+$/.test(taskId) && Number(taskId) >= 1 && Number(taskId) <= planTaskIds.length);
  const why = named
    ? fillSection(TEXTS, 'task-completed-other-task', { task: taskId })
    : fillSection(TEXTS, 'task-completed-unknown-task', { task: taskId, tasks: planTaskIds.join(', ') });
  return fillSection(TEXTS, 'task-completed-wrong-task', {
    current_id: current.id,
    current_title: current.title,
    why,
  });
}
