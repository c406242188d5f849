import type { ModelToolCall } from '../../model/call-model.js';
import type { ToolResult } from '../../tools/types.js';

/** A tool call together with what it returned. */
export interface ExecutedCall {
  call: ModelToolCall;
  result: ToolResult & { durationMs: number };
}
