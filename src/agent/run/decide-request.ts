import { fillSection } from '../../prompts/template.js';
import { findEffect } from '../loop/effects.js';
import type { NextStep, Step } from '../loop/step.js';
import { addNote } from '../state/notes.js';
import type { Conversation, RunContext } from '../state/run-state.js';

/** The template of the notes that send the model back to work (src/prompts/answer-notes.md). */
const ANSWER_NOTES = 'answer-notes';

/**
 * Simple mode's rules for the top-level loop of a request: an approved plan hands over to the
 * orchestrator; otherwise the request ends when the step says it is done — in `react` a reply
 * without tool calls, in `roa` an Observe with `should_continue: false` (its `final_answer`, else
 * the tool step's text, is the answer). Under `--plan always` it cannot end without a plan.
 */
export function decideRequestStep(
  step: Step,
  context: { run: RunContext; conversation: Conversation; planRequired: boolean },
): NextStep {
  const approved = findEffect(step, 'plan_approved');
  if (approved) return { kind: 'plan', planId: approved.planId, graph: approved.graph };
  const { observe } = step.phases;
  const done = observe ? !observe.shouldContinue : step.reply.toolCalls.length === 0;
  if (!done) return { kind: 'run_again' };
  if (context.planRequired) {
    addNote(context.run, context.conversation, {
      step: step.index,
      content: fillSection(ANSWER_NOTES, 'plan-required'),
    });
    return { kind: 'run_again' };
  }
  const answer = observe?.finalAnswer ?? (step.reply.text.trim() || (observe?.content ?? ''));
  if (answer.trim() === '') {
    // An Observe that ends the request with nothing to say is no answer; bounded by the step limit.
    addNote(context.run, context.conversation, {
      step: step.index,
      content: fillSection(ANSWER_NOTES, 'no-answer'),
    });
    return { kind: 'run_again' };
  }
  return { kind: 'final', answer };
}
