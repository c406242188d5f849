import type { ModelToolCall } from '../../model/call-model.js';
import type { Tool, ToolContext } from '../../tools/types.js';
import type { SubagentTag } from './subagent-tag.js';

/** Whether a call may run; when not, the result the model gets instead. */
export type GateResult = { allowed: true } | { allowed: false; output: string; display: string };

/** Where a call is asked from. */
export interface GateOrigin {
  call: ModelToolCall;
  tool: Tool;
  ctx: ToolContext;
  step: number;
  taskId?: string;
  /** The subagent whose call it is. */
  subagent?: SubagentTag;
  signal: AbortSignal;
  /** The call is the task's check from the approved plan (asked as such). */
  check?: boolean;
}

/**
 * What stands before every tool call of a run: it runs, asks or refuses the call. `approval/`
 * implements it (ApprovalGate); declared here so that a run's state names it without climbing
 * to it.
 */
export interface ToolCallGate {
  /** A call was not run because it needed approval nobody could give: the run ends (needs_input). */
  readonly blocked: boolean;
  /** An unexpected error while checking a call: the run ends as failed with this reason. */
  readonly failure: string | undefined;
  /** Decides, asking the user when the rules say so. Never throws. */
  check(origin: GateOrigin): Promise<GateResult>;
}
