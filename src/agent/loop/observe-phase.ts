import { buildObservePrompt } from '../../prompts/observe-prompt.js';
import { fillSection } from '../../prompts/template.js';
import { formatArgs } from '../../util/format-args.js';
import { extractJsonBlock, textField } from './json-block.js';
import { type LoopContext, saveConversation } from './loop-context.js';
import { ROA_NOTES } from './reason-phase.js';
import type { ObservePhase, Step } from './step.js';
import { callModelForStep, plainCallTools } from './step-model-call.js';
import type { PhaseResult } from './strategy.js';

/**
 * Observe, the last phase of a `roa` step: a plain call (no tool may be called) over the step's
 * tool results, ending with `{ observation, should_continue, final_answer }`. A reply without a
 * readable block is taken as free text and the loop goes on. Emits `agent_observe`; what it
 * means for the loop is for `decide` to say.
 */
export async function runObservePhase(ctx: LoopContext, step: Step): Promise<PhaseResult<ObservePhase>> {
  const { run, conversation, taskId } = ctx;
  const prompt = buildObservePrompt({
    step: step.index,
    action: step.reply.text,
    calls: step.executed.map(({ call, result }) => ({
      call: `${call.name}(${formatArgs(call.args)})`,
      isError: result.isError,
      output: result.output,
    })),
    scope: taskId === undefined ? 'request' : 'task',
  });
  const called = await callModelForStep(ctx, {
    step: step.index,
    phase: 'observe',
    system: conversation.system,
    messages: [...conversation.messages, { role: 'user', content: prompt }],
    ...plainCallTools(ctx),
    streamText: false,
  });
  if (!called.ok) return { kind: 'end', outcome: called.outcome };
  const observe = readObservation(called.reply.text);
  run.emit({
    type: 'agent_update',
    update_type: 'agent_observe',
    step: step.index,
    content: observe.content,
    should_continue: observe.shouldContinue,
    task_id: taskId,
  });
  if (observe.shouldContinue && observe.content !== '') {
    // The next step's Reason starts from what this step observed.
    conversation.messages.push({
      role: 'user',
      content: fillSection(ROA_NOTES, 'observation', {
        step: String(step.index),
        observation: observe.content,
      }),
    });
    await saveConversation(ctx);
  }
  return { kind: 'done', value: observe };
}

/** Reads an Observe reply; without a readable block the loop goes on. */
export function readObservation(text: string): ObservePhase {
  const block = extractJsonBlock(text);
  const shouldContinue = block?.value.should_continue;
  return {
    content: textField(block, 'observation') ?? (block ? block.text : text.trim()),
    shouldContinue: typeof shouldContinue === 'boolean' ? shouldContinue : true,
    finalAnswer: textField(block, 'final_answer'),
    structured: block !== undefined,
  };
}
