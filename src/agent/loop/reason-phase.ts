import { buildReasonPrompt } from '../../prompts/reason-prompt.js';
import { fillSection } from '../../prompts/template.js';
import { extractJsonBlock, textField } from './json-block.js';
import { type LoopContext, saveConversation } from './loop-context.js';
import type { ReasonPhase } from './step.js';
import { callModelForStep, plainCallTools } from './step-model-call.js';
import type { PhaseResult } from './strategy.js';

/** The template of the notes between a `roa` step's phases (src/prompts/roa-notes.md). */
export const ROA_NOTES = 'roa-notes';

/**
 * Reason, the first phase of a `roa` step: a plain call (no tool may be called) that asks the
 * model to think the step through, ending with `{ plan, tools_to_consider, finish }`. A reply
 * without a readable block is taken as free text. Emits `agent_reason`.
 */
export async function runReasonPhase(ctx: LoopContext, step: number): Promise<PhaseResult<ReasonPhase>> {
  const { run, conversation, registry, taskId } = ctx;
  const prompt = buildReasonPrompt({ step, toolNames: registry.offered(run).map((tool) => tool.name) });
  const called = await callModelForStep(ctx, {
    step,
    phase: 'reason',
    // The base system prompt: the JSON protocol's reply format is for the tool step only.
    system: conversation.system,
    // The prompt is not kept in the conversation; what the model reasoned is (as a note below).
    messages: [...conversation.messages, { role: 'user', content: prompt }],
    ...plainCallTools(ctx),
    streamText: false,
  });
  if (!called.ok) return { kind: 'end', outcome: called.outcome };
  const reason = readReason(called.reply.text);
  run.emit({
    type: 'agent_update',
    update_type: 'agent_reason',
    step,
    content: reason.content,
    task_id: taskId,
  });
  if (reason.content !== '' || reason.plan !== undefined) {
    // The reasoning reaches the tool step as a user note rather than as an assistant message: a
    // conversation that ends with the assistant's turn is read as a reply to continue (prefill)
    // by some providers, and the JSON protocol expects the assistant's turns to be its JSON
    // objects. A note is valid in both wire protocols and with every provider.
    conversation.messages.push({ role: 'user', content: reasoningNote(step, reason) });
    await saveConversation(ctx);
  }
  return { kind: 'done', value: reason };
}

/** Reads a Reason reply: the block's fields when there is one, the free text in any case. */
export function readReason(text: string): ReasonPhase {
  const block = extractJsonBlock(text);
  const plan = textField(block, 'plan');
  const tools = block?.value.tools_to_consider;
  return {
    content: block ? block.text || plan || '' : text.trim(),
    plan,
    toolsToConsider: Array.isArray(tools) ? tools.filter((name) => typeof name === 'string') : [],
    finish: block?.value.finish === true,
    structured: block !== undefined,
  };
}

function reasoningNote(step: number, reason: ReasonPhase): string {
  const lines = [fillSection(ROA_NOTES, 'reasoning-heading', { step: String(step) }), reason.content];
  if (reason.plan !== undefined && reason.plan !== reason.content)
    lines.push(fillSection(ROA_NOTES, 'reasoning-plan', { plan: reason.plan }));
  if (reason.toolsToConsider.length > 0)
    lines.push(fillSection(ROA_NOTES, 'reasoning-tools', { tools: reason.toolsToConsider.join(', ') }));
  lines.push(fillSection(ROA_NOTES, reason.finish ? 'reasoning-finish' : 'reasoning-act'));
  return lines.filter((line) => line !== '').join('\n');
}
