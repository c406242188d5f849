import type { SessionView, StepItem, TimelineItem } from '../../../src/events/session-view.js';
import { openQuestion } from '../../../src/events/session-view-select.js';

/**
 * Tool calls that only signal the orchestrator or ask the user: what they carry is shown where it
 * lands (the task line's summary or reason, the question, the result), so their row shows no
 * argument.
 */
export const SIGNAL_TOOLS = new Set(['task_completed', 'fail_task', 'request_input', 'final_answer']);

/**
 * What the conversation shows of a session's items, so that each thing is said once: the final
 * answer in the result (not again in the step that streamed it, nor in a final_answer row), an
 * open question in its banner (in the conversation once answered), a failed task's reason in its
 * task line and the decision banner (no third card), a stop in the run's result (not again as
 * "Stopped at step N." above it).
 */
export function shownItems(view: SessionView, items: readonly TimelineItem[]): TimelineItem[] {
  const open = openQuestion(view);
  const answers = new Map<string, string>();
  for (const item of view.items)
    if (item.kind === 'completion' && item.finalAnswer) answers.set(item.runId, item.finalAnswer.trim());
  const stopped = new Set(
    view.items.flatMap((item) =>
      item.kind === 'completion' && item.status === 'stopped' ? [item.runId] : [],
    ),
  );
  const lastSteps = new Map<string, StepItem>();
  for (const item of view.items) if (item.kind === 'step') lastSteps.set(item.runId, item);
  return items.flatMap((item): TimelineItem[] => {
    if (item.kind === 'failure') return [];
    if (item.kind === 'notice' && item.id.startsWith(`${item.runId}:stopped:`) && stopped.has(item.runId))
      return [];
    if (item.kind === 'question' && item === open) return [];
    if (item.kind !== 'step') return [item];
    const answer = answers.get(item.runId);
    if (answer === undefined) return [item];
    const step = withoutAnswer(item, answer, lastSteps.get(item.runId) === item);
    return isEmpty(step) ? [] : [step];
  });
}

function withoutAnswer(step: StepItem, answer: string, last: boolean): StepItem {
  const tools = step.tools.filter((call) => !(call.name === 'final_answer' && call.status === 'ok'));
  const text = last && step.text.trim() === answer ? '' : step.text;
  return tools.length === step.tools.length && text === step.text ? step : { ...step, tools, text };
}

function isEmpty(step: StepItem): boolean {
  return (
    step.text.trim() === '' &&
    step.tools.length === 0 &&
    !step.reason &&
    !step.observe &&
    step.notes.length === 0 &&
    step.retries.length === 0 &&
    step.refusedRemaining === undefined
  );
}
