import { fillTemplate, loadTemplate } from './template.js';

/** One tool call of the step being observed. */
export interface ObservedCall {
  /** The call as one line: `name(args)`. */
  call: string;
  isError: boolean;
  output: string;
}

/** What Observe decides: the end of the whole request, or of the current task of a plan. */
export type ObserveScope = 'request' | 'task';

/** The most characters of one tool output the Observe prompt repeats (the full output is above it). */
export const MAX_OBSERVED_OUTPUT_CHARS = 1500;

const SCOPES: Record<ObserveScope, string> = {
  request: `- "should_continue": false only when the whole request is done (or cannot be done at all); then the run ends.
- "final_answer": with should_continue false, the answer for the user: what was done and how it was verified. Otherwise null.`,
  task: `- "should_continue": false only when the current task is done and verified. The task closes only when you call task_completed (or fail_task); taskweave decides when the plan ends.
- "final_answer": always null inside a task.`,
};

/**
 * Fills the Observe prompt of the `roa` loop: a plain call (no tools) over the step's tool results
 * that ends with an `{ observation, should_continue, final_answer }` block.
 */
export function buildObservePrompt(input: {
  step: number;
  action: string;
  calls: readonly ObservedCall[];
  scope: ObserveScope;
}): string {
  return fillTemplate(loadTemplate('observe'), {
    step: String(input.step),
    action: input.action.trim() === '' ? '(no text)' : input.action.trim(),
    tool_results: renderCalls(input.calls),
    scope: `- "observation": what the results show, in one or two sentences.\n${SCOPES[input.scope]}`,
  }).trim();
}

function renderCalls(calls: readonly ObservedCall[]): string {
  if (calls.length === 0) return '(no tool was called in this step)';
  return calls
    .map((entry, index) => {
      const output = entry.output === '' ? '(no output)' : entry.output;
      const shown =
        output.length > MAX_OBSERVED_OUTPUT_CHARS
          ? `${output.slice(0, MAX_OBSERVED_OUTPUT_CHARS)}… [${output.length - MAX_OBSERVED_OUTPUT_CHARS} more characters; the full output is in the tool result]`
          : output;
      return `${index + 1}. ${entry.call} → ${entry.isError ? 'ERROR' : 'ok'}\n${shown}`;
    })
    .join('\n\n');
}
