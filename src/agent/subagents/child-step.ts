import { fillSection } from '../../prompts/template.js';
import type { NextStep, Step } from '../loop/step.js';
import { addNote } from '../state/notes.js';
import type { Conversation, RunContext } from '../state/run-state.js';

/** The template of the notes that send the model back to work (src/prompts/answer-notes.md). */
const ANSWER_NOTES = 'answer-notes';

/**
 * A subagent's rules for its loop: it ends with its answer when a step says it is done (in
 * `react` a reply without tool calls, in `roa` an Observe with `should_continue: false`); the
 * files its file tools changed are collected into `files` as it goes.
 */
export function childStepDecider(context: {
  run: RunContext;
  conversation: Conversation;
  files: Set<string>;
}): (step: Step) => NextStep {
  return (step) => {
    for (const { call, result } of step.executed) {
      const tool = context.run.registry.get(call.name);
      const target = (call.args as { path?: unknown } | null)?.path;
      if (tool?.changes === 'files' && !result.isError && typeof target === 'string')
        context.files.add(target);
    }
    const { observe } = step.phases;
    const done = observe ? !observe.shouldContinue : step.reply.toolCalls.length === 0;
    if (!done) return { kind: 'run_again' };
    const answer = observe?.finalAnswer ?? (step.reply.text.trim() || (observe?.content ?? ''));
    if (answer.trim() === '') {
      addNote(context.run, context.conversation, {
        step: step.index,
        content: fillSection(ANSWER_NOTES, 'no-answer'),
      });
      return { kind: 'run_again' };
    }
    return { kind: 'final', answer };
  };
}
