import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/types.js';

// Module-level schemas: each task gets its own control tools, but their model-facing
// definitions are built once.
const TASK_COMPLETED_PARAMETERS = z.object({
  summary: z.string().min(1).describe('What was done and how it was verified, in one to three sentences.'),
});
const FAIL_TASK_PARAMETERS = z.object({
  reason: z.string().min(1).describe('Why the task cannot be done, concretely.'),
});
const FINAL_ANSWER_PARAMETERS = z.object({
  answer: z.string().min(1).describe('The answer for the user: what was done, what was verified.'),
});

/**
 * The model's control tools in complex mode. Their calls run like any tool (visible as events,
 * validated by the same wrapper); what they mean for the run is the `effect` in their result,
 * which the orchestrator's `decide` reads from the step.
 */

/** `task_completed { summary }`: the current task's objective is met. */
export function taskCompletedTool(): Tool {
  return defineTool({
    name: 'task_completed',
    description: 'Marks the current task as done, with a summary of what was done and verified.',
    whenToUse:
      'When the objective of the current task is met and verified. You may call it together with your last tool calls; they run first, then the task closes.',
    whenNotToUse:
      'Not before the work is actually done and checked, and not for other tasks than the current one. Not to end the whole request (that is final_answer, once all tasks are done).',
    readOnly: true,
    parameters: TASK_COMPLETED_PARAMETERS,
    async execute({ summary }) {
      return {
        output:
          'Noted: the task will close once the other calls of this reply (and its check, if any) have run.',
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
    description:
      'Gives up on the current task and says why; the user then decides to retry, skip, revise the plan or abort.',
    whenToUse:
      'When the current task cannot be done: something it needs is missing or impossible, and trying other approaches did not help.',
    whenNotToUse: 'Not for an error you can still fix (fix it), and not because the task is long.',
    readOnly: true,
    parameters: FAIL_TASK_PARAMETERS,
    async execute({ reason }) {
      return {
        output: 'Noted: the task is marked failed.',
        isError: false,
        effect: { kind: 'task_failed', reason },
      };
    },
  });
}

/**
 * `final_answer { answer }`: judged by `decide(answer)`, which refuses it while tasks remain; an
 * accepted answer is the call's `final_answer` effect.
 */
export function finalAnswerTool(decide: (answer: string) => { accepted: boolean; message: string }): Tool {
  return defineTool({
    name: 'final_answer',
    description: 'Ends the whole request with the answer for the user.',
    whenToUse: 'Only when ALL tasks of the plan are done: the answer summarises what was done.',
    whenNotToUse:
      'Never while tasks remain: it is refused then. To close the current task, call task_completed.',
    readOnly: true,
    parameters: FINAL_ANSWER_PARAMETERS,
    async execute({ answer }) {
      const verdict = decide(answer);
      return {
        output: verdict.message,
        isError: false,
        ...(verdict.accepted ? { effect: { kind: 'final_answer' as const, answer } } : {}),
      };
    },
  });
}
