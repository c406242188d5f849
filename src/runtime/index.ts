/*
 * What front ends may use: the runtime and the types its API speaks. Front ends import this
 * folder (and event types, pure plan helpers), never `agent` or `store`.
 */

export {
  type AnswerResult,
  type ApprovalDecision,
  DEFAULT_INPUT_TIMEOUT_MS,
  DEFAULT_MAX_STEPS,
  type FailureChoice,
  type PendingRequest,
  type PlanMode,
  type ProtocolName,
  type RequestAnswer,
  type RequestPolicy,
} from '../agent/index.js';
export { trustBaseUrl } from '../config/trust-base-url.js';
export {
  describeWorkspaceModel,
  rememberWorkspaceModel,
  WorkspaceModelError,
} from '../config/workspace-model.js';
export { originOf } from '../model/base-url.js';
export { EndpointTrustError } from '../model/endpoint-trust.js';
export { findInstructions, type InstructionsFile } from '../prompts/project-instructions.js';
export { DEFAULT_QUEUE, DEFAULT_SESSION_LIST_LIMIT } from '../store/defaults.js';
export type { Run, Session, Task } from '../store/rows.js';
export type { StoredMessage } from '../store/session-log.js';
export type { TaskStatus } from '../store/vocabulary.js';
export { APPROVAL_MODES, type ApprovalMode, DEFAULT_APPROVAL_MODE } from '../tools/approval.js';
export { type BackgroundCommandInfo, stateText } from '../tools/background/index.js';
export type { McpServerConfig } from '../tools/mcp/index.js';
export { SANDBOX_MODES, type SandboxMode } from '../tools/sandbox-modes.js';
export { NEEDS_INPUT_PREFIX, type WaitingFor, type WaitingSession } from './answers/waiting-session.js';
export { listMcpServers, type McpServerListing } from './books/mcp-list.js';
export { LAST_SESSION, SessionBook, type SessionDetail, type SessionSummary } from './books/session-book.js';
export { compactionSummary, type HistoryEntry, sessionHistory } from './books/session-history.js';
export { MANUAL_COMPLETION_SUMMARY, TaskBoard, type TaskTreeNode, taskTree } from './books/task-board.js';
export type { CommandGoal } from './custom-commands/command-goal.js';
export type { CustomCommand, LoadedCommands } from './custom-commands/load-commands.js';
export { MAX_DEFAULT_TITLE_CHARS } from './defaults.js';
export type { GoalResult, GoalRun, GoalRunOptions, GoalSettled, GoalStart } from './goal-run.js';
export {
  type GoalSettings,
  Runtime,
  type RuntimeOptions,
  type Submission,
  type SubmitOutcome,
  type WorkOutcome,
} from './runtime.js';
export { type OpenOptions, open, type RunOptions, Taskweave } from './sdk.js';
export { RuntimeInputError } from './setup/errors.js';
export { openWorkspaceStore } from './setup/open-store.js';
export type { RunSettings } from './setup/run-settings.js';
export { DEFAULT_SANDBOX_MODE, RuntimeSafety, type SafetyChoices } from './setup/runtime-safety.js';
export { apiPlan, apiRun, apiSession, apiTask } from './wire-shapes.js';
export { type WaitingReply, waitingText } from './worker/continue-waiting.js';
export type { DrainSummary } from './worker/drain-queue.js';
export type { QueueTaskResult } from './worker/queue-task-result.js';
export type { QueuedGoalOutcome } from './worker/queued-goal.js';
export type { ResumeOutcome } from './worker/resume.js';
