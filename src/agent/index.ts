/*
 * The agent's face: what the runtime uses to start, continue and answer runs, and the types its
 * settings speak. Other layers import this file, never a room of the agent; two light faces
 * stand beside it for modules on a quick command's path: defaults.ts (the defaults alone) and
 * compaction.ts (a compaction's record, for reading a session).
 */

export type { ApprovalSettings } from './approval/approval-gate.js';
export type { RunSafety } from './approval/run-safety.js';
export { SessionApprovals } from './approval/session-approvals.js';
export { loadConversation } from './conversation/stored-conversation.js';
export { loadStoredPlan } from './orchestrator/stored-plan.js';
export type { ProtocolName } from './protocol/wire-protocol.js';
export { recordRefusedRun } from './run/refused-run.js';
export {
  type PlanMode,
  type RunAgentOptions,
  type RunResult,
  resumePlan,
  runAgent,
} from './run/run-agent.js';
export { type RequestPolicy, RunControl } from './state/control.js';
export { DEFAULT_INPUT_TIMEOUT_MS, DEFAULT_MAX_STEPS } from './state/defaults.js';
export { Journal } from './state/journal.js';
export type { LoopName } from './state/loop-name.js';
export {
  type AnswerResult,
  type ApprovalDecision,
  answerMismatch,
  type FailureChoice,
  type PendingRequest,
  type RequestAnswer,
} from './state/requests.js';
export type { TaskTracking } from './state/task-tracking.js';
export { runAgents } from './subagents/builtin-agents.js';
export { DEFAULT_SUBAGENT_DEPTH, type Subagent, type SubagentSettings } from './subagents/subagent.js';
