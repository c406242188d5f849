import type { ModelMessage } from 'ai';
import { contextLimitsFor } from '../../model/context-limits.js';
import { buildCompactedSummary, buildCompactRequest } from '../../prompts/compact-prompt.js';
import { fillSection } from '../../prompts/template.js';
import { collectRecord, compactionMessage } from '../conversation/compaction-record.js';
import { estimateContextTokens, estimateMessageTokens } from '../conversation/context-size.js';
import { maskOldToolOutputs } from '../conversation/mask-outputs.js';
import { withoutImages } from '../state/image-parts.js';
import { type LoopContext, saveConversation } from './loop-context.js';
import type { Interruption } from './step.js';
import { callModelForStep, plainCallTools } from './step-model-call.js';
import { toolContextFor } from './tool-context.js';

/** The template of the summary's task list when it is not the to-do list (src/prompts/compacted-task-list.md). */
const TASK_LIST_TEXTS = 'compacted-task-list';

/** The most recent steps (a model reply and its results) that a compaction leaves whole. */
export const KEEP_RECENT_STEPS = 4;
/** Fewer older messages than this are not worth a model call. */
export const MIN_MESSAGES_TO_COMPACT = 4;
/**
 * The share of the threshold's room for messages that the recent steps may fill: when they are
 * bigger (large outputs), fewer steps stay whole, so that one compaction gets the context well
 * under the threshold instead of compacting again at the next step.
 */
export const RECENT_SHARE = 0.5;

/**
 * Before a step: when the context the next call would carry passes the model's threshold (a
 * fraction of its window), the older part of the conversation is replaced by a summary written
 * by one model call (phase `compact`). The goal, the task list, the questions asked and the files
 * changed are kept exactly; the last KEEP_RECENT_STEPS steps stay whole. The compacted
 * conversation is stored (a resumed run starts from it) and then announced (`context_compacted`).
 * Returns the interruption when the compaction call fails for good or is stopped.
 */
export async function compactIfNeeded(ctx: LoopContext, step: number): Promise<Interruption | undefined> {
  const { run, conversation } = ctx;
  // A task's first message is its prompt, rebuilt every step: it stays first and is never stored.
  const pinned = conversation.taskId === undefined ? 0 : 1;
  // Too few messages to compact, whatever their size: not worth measuring (a task's first steps).
  if (conversation.messages.length - pinned < MIN_MESSAGES_TO_COMPACT) return undefined;
  const limits = run.model.context ?? contextLimitsFor(run.model.id);
  const threshold = limits.window * limits.compactAt;
  let before = contextTokens(ctx, conversation.messages);
  if (before <= threshold) return undefined;
  // Images go first: those the model has replied to become short markers; the text is
  // summarised only when that is not enough.
  const images = dropEarlierImages(ctx, pinned);
  if (images > 0) {
    const after = contextTokens(ctx, conversation.messages);
    run.emit({
      type: 'agent_update',
      update_type: 'context_compacted',
      step,
      task_id: ctx.taskId,
      messages_before: conversation.messages.length,
      messages_after: conversation.messages.length,
      tokens_before: before,
      tokens_after: after,
      tokens_saved: Math.max(0, before - after),
      images_dropped: images,
    });
    if (after <= threshold) return undefined;
    before = after;
  }
  const fixed = contextTokens(ctx, conversation.messages.slice(0, pinned));
  const cut = recentStart(masked(ctx, conversation.messages), {
    pinned,
    budget: Math.max(0, threshold - fixed) * RECENT_SHARE,
  });
  const older = conversation.messages.slice(pinned, cut);
  if (older.length < MIN_MESSAGES_TO_COMPACT) return undefined;

  const called = await callModelForStep(ctx, {
    step,
    phase: 'compact',
    system: run.protocol.system(conversation.system, ctx.registry, run),
    messages: [...conversation.messages.slice(0, cut), { role: 'user', content: buildCompactRequest() }],
    ...plainCallTools(ctx),
    streamText: false,
  });
  if (!called.ok) return called.outcome;
  const summary = called.reply.text.trim();
  if (summary === '') {
    run.emit({
      type: 'agent_update',
      update_type: 'agent_note',
      step,
      content: 'The compaction call returned no summary; the conversation goes on uncompacted.',
      task_id: ctx.taskId,
    });
    return undefined;
  }

  const record = collectRecord(older, {
    goal: conversation.goal,
    changesFiles: (name) => ctx.registry.get(name)?.changes === 'files',
  });
  const text = buildCompactedSummary({
    replaced: older.length,
    goals: record.goals,
    taskList: await taskList(ctx, step),
    questions: record.questions,
    filesChanged: record.filesChanged,
    summary,
  });
  // Everything before is stored already; the compacted form is stored after it, whole, and a
  // resumed run starts from its summary message.
  await saveConversation(ctx);
  const messagesBefore = conversation.messages.length;
  conversation.messages = [
    ...conversation.messages.slice(0, pinned),
    compactionMessage(text, record),
    ...conversation.messages.slice(cut),
  ];
  conversation.saved = pinned;
  await saveConversation(ctx);
  const after = contextTokens(ctx, conversation.messages);
  run.emit({
    type: 'agent_update',
    update_type: 'context_compacted',
    step,
    task_id: ctx.taskId,
    messages_before: messagesBefore,
    messages_after: conversation.messages.length,
    tokens_before: before,
    tokens_after: after,
    tokens_saved: Math.max(0, before - after),
  });
  return undefined;
}

/**
 * Replaces the images of the messages before the last model reply (those it has seen) by their
 * markers; returns how many were dropped. Stored messages keep their images (a resumed run that
 * is again past the threshold drops them again); ones not yet stored are stored with the markers.
 */
function dropEarlierImages(ctx: LoopContext, pinned: number): number {
  const { conversation } = ctx;
  let lastReply = conversation.messages.length;
  while (lastReply > pinned && conversation.messages[lastReply - 1]?.role !== 'assistant') lastReply--;
  if (lastReply <= pinned) return 0;
  const end = lastReply - 1;
  const { messages, dropped } = withoutImages(conversation.messages.slice(pinned, end));
  if (dropped.length === 0) return 0;
  conversation.messages = [
    ...conversation.messages.slice(0, pinned),
    ...messages,
    ...conversation.messages.slice(end),
  ];
  return dropped.length;
}

/** The estimated input tokens of the next call: what is sent, old outputs masked. */
function contextTokens(ctx: LoopContext, messages: ModelMessage[]): number {
  const { protocol } = ctx.run;
  return estimateContextTokens({
    system: protocol.system(ctx.conversation.system, ctx.registry, ctx.run),
    tools: protocol.modelTools(ctx.registry, ctx.run),
    messages: masked(ctx, messages),
  });
}

function masked(ctx: LoopContext, messages: ModelMessage[]): ModelMessage[] {
  return maskOldToolOutputs(messages, { isReadOnly: (name) => ctx.registry.get(name)?.readOnly ?? false });
}

/**
 * Where the recent part begins: at a model reply, KEEP_RECENT_STEPS replies from the end, or
 * fewer when more would pass the budget (the last reply always stays).
 */
function recentStart(messages: readonly ModelMessage[], options: { pinned: number; budget: number }): number {
  let replies = 0;
  let start = messages.length;
  for (let index = messages.length - 1; index >= options.pinned; index--) {
    if (messages[index]?.role !== 'assistant') continue;
    const tokens = estimateMessageTokens(messages.slice(index));
    if (replies > 0 && tokens > options.budget) break;
    replies += 1;
    start = index;
    if (replies === KEEP_RECENT_STEPS) break;
  }
  return replies === 0 ? options.pinned : start;
}

/** The task list as it is now: a task's plan is in its prompt; otherwise the to-do list, read from the store. */
async function taskList(ctx: LoopContext, step: number): Promise<string> {
  if (ctx.taskId !== undefined) return fillSection(TASK_LIST_TEXTS, 'in-task');
  const list = ctx.registry.get('todo_list');
  if (list === undefined) return fillSection(TASK_LIST_TEXTS, 'no-list');
  const call = { id: `compact-${step}`, name: list.name, args: {} };
  const result = await list.run(
    {},
    toolContextFor(ctx.run, { call, step, taskId: undefined, signal: ctx.signal }),
  );
  return result.isError
    ? fillSection(TASK_LIST_TEXTS, 'unreadable', { error: result.output })
    : result.output;
}
