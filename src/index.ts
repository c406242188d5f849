/*
 * The package's programmatic face (`import { open } from 'taskweave'`, docs/sdk.md): open a
 * workspace, run goals as async iterators of the protocol's typed events, answer what they ask,
 * stop them, read sessions, plans and the queue. The CLI, the server and the ACP agent go through
 * the same runtime.
 */

export type {
  AgentUpdate,
  AgentUpdateOf,
  AgentUpdateType,
  Envelope,
  RunStatus,
  ServerEvent,
  TopLevelOf,
  TopLevelType,
} from './events/registry.js';
export type { GoalResult, GoalRun, GoalSettled, GoalStart } from './runtime/goal-run.js';
export {
  type AnswerResult,
  APPROVAL_MODES,
  type ApprovalDecision,
  type ApprovalMode,
  type FailureChoice,
  type McpServerConfig,
  type PendingRequest,
  type PlanMode,
  type RequestAnswer,
  RuntimeInputError,
  type SessionDetail,
  type SessionSummary,
  type TaskTreeNode,
} from './runtime/index.js';
export { type OpenOptions, open, type RunOptions, Taskweave } from './runtime/sdk.js';
