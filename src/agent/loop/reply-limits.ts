import type { ModelToolCall } from '../../model/call-model.js';
import { fillSection } from '../../prompts/template.js';
import { REPETITION_FAIL_LIMIT, stableStringify } from './recovery.js';

/** The template of what the model reads when calls of a reply are not run (src/prompts/reply-limits.md). */
export const REPLY_LIMITS = 'reply-limits';

/** The most tool calls of one reply that run; the rest are dropped and the model is told. */
export const MAX_TOOL_CALLS_PER_REPLY = 20;

/** The calls of one reply that may run, and what was held back. */
export interface LimitedCalls {
  /** The calls that run, in order. */
  run: ModelToolCall[];
  /**
   * The call that repeats the one before it for the REPETITION_FAIL_LIMIT-th time in a row in
   * this reply: not run, but reported (as not run) so the repetition rule sees it and ends the loop.
   */
  repeated?: ModelToolCall;
  /** How many calls were dropped unseen: beyond the cap, or after the repeated call. */
  dropped: number;
  /** What the model is told about the calls held back; undefined when every call runs. */
  note?: string;
}

/**
 * Bounds the tool calls of one reply before any runs: at most MAX_TOOL_CALLS_PER_REPLY, and the
 * repetition rule applied within the reply — the same call (same arguments) made
 * REPETITION_FAIL_LIMIT times in a row is not run again, so 100 identical commands in one reply
 * run REPETITION_FAIL_LIMIT - 1 times, not 100.
 */
export function limitReplyCalls(calls: ModelToolCall[]): LimitedCalls {
  const capped = calls.slice(0, MAX_TOOL_CALLS_PER_REPLY);
  let previous: string | undefined;
  let streak = 0;
  for (const [index, call] of capped.entries()) {
    const signature = `${call.name}(${stableStringify(call.args)})`;
    streak = signature === previous ? streak + 1 : 1;
    previous = signature;
    if (streak >= REPETITION_FAIL_LIMIT) {
      const dropped = calls.length - index - 1;
      return {
        run: capped.slice(0, index),
        repeated: call,
        dropped,
        note: fillSection(REPLY_LIMITS, 'repeated-note', {
          tool: call.name,
          limit: String(REPETITION_FAIL_LIMIT),
          ran: String(REPETITION_FAIL_LIMIT - 1),
          not_run: String(dropped + 1),
        }),
      };
    }
  }
  const dropped = calls.length - capped.length;
  if (dropped === 0) return { run: capped, dropped: 0 };
  return {
    run: capped,
    dropped,
    note: fillSection(REPLY_LIMITS, 'too-many', {
      calls: String(calls.length),
      limit: String(MAX_TOOL_CALLS_PER_REPLY),
      dropped: String(dropped),
    }),
  };
}
