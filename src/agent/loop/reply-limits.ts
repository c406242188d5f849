import type { ModelToolCall } from '../../model/call-model.js';
import { REPETITION_FAIL_LIMIT, stableStringify } from './recovery.js';

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
        note: `Your reply made the same ${call.name} call ${REPETITION_FAIL_LIMIT} or more times in a row; it ran ${REPETITION_FAIL_LIMIT - 1} times and the rest of the reply (${dropped + 1} calls) was not run.`,
      };
    }
  }
  const dropped = calls.length - capped.length;
  if (dropped === 0) return { run: capped, dropped: 0 };
  return {
    run: capped,
    dropped,
    note: `Your reply made ${calls.length} tool calls; at most ${MAX_TOOL_CALLS_PER_REPLY} run per reply, so the first ${MAX_TOOL_CALLS_PER_REPLY} ran and the other ${dropped} were dropped (not run). Make the calls that are still needed in your next reply.`,
  };
}
