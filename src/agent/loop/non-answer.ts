import type { ModelReply } from '../../model/call-model.js';
import { fillSection } from '../../prompts/template.js';
import type { ReadReply } from '../state/wire-protocol.js';

/**
 * Replies in a row that are not an answer (empty, cut off, filtered, reasoning only) after which
 * the loop ends as failed: the first one and NON_ANSWER_LIMIT - 1 requests to continue.
 */
export const NON_ANSWER_LIMIT = 3;

/** Why a reply without tool calls is not an answer either. */
export type NonAnswerKind = 'empty' | 'cut_off' | 'filtered' | 'reasoning_only';

/** The finish reasons (AI SDK's unified names) that mean the reply was not finished. */
const UNFINISHED: Record<string, NonAnswerKind> = { length: 'cut_off', 'content-filter': 'filtered' };

/**
 * Whether a reply that makes no tool call is no answer either: it was cut off (finish reason
 * `length`) or stopped by the content filter, it is empty or whitespace, or (JSON protocol) it
 * has only `reasoning`. A reply with tool calls is work, whatever its finish reason: the calls
 * the provider delivered are whole. Undefined when the reply can stand as what it says.
 */
export function nonAnswerOf(raw: ModelReply, read: ReadReply): NonAnswerKind | undefined {
  // Checked before the reply is read: a JSON reply cut off mid-object is "cut off", not "malformed".
  if (raw.toolCalls.length === 0 && UNFINISHED[raw.finishReason]) return UNFINISHED[raw.finishReason];
  if (!read.ok || read.reply.toolCalls.length > 0 || read.reply.text.trim() !== '') return undefined;
  return read.reasoning !== undefined && read.reasoning.trim() !== '' ? 'reasoning_only' : 'empty';
}

/** What the model is told after such a reply, so that it continues. */
export function continueRequest(kind: NonAnswerKind): string {
  return fillSection('non-answer', CONTINUE_SECTIONS[kind]);
}

/** The section of src/prompts/non-answer.md for each kind of reply. */
const CONTINUE_SECTIONS: Record<NonAnswerKind, string> = {
  empty: 'empty',
  cut_off: 'cut-off',
  filtered: 'filtered',
  reasoning_only: 'reasoning-only',
};

/** The reason a loop fails with after NON_ANSWER_LIMIT such replies in a row. */
export function nonAnswerFailure(kind: NonAnswerKind): string {
  const last = {
    empty: 'an empty reply',
    cut_off: 'a reply cut off at the output token limit (finish reason length)',
    filtered: 'a reply stopped by the content filter (finish reason content-filter)',
    reasoning_only: 'a reply with only reasoning and no tool call or answer',
  }[kind];
  return `The model gave no usable reply ${NON_ANSWER_LIMIT} times in a row (the last: ${last}).`;
}
