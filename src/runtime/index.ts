/*
 * What front ends may use: the runtime and the types its API speaks. Front ends import this
 * folder (and event types, pure plan helpers), never `agent` or `store`.
 */

export type { ProtocolName } from '../agent/protocol/wire-protocol.js';
export type { RequestPolicy } from '../agent/run/control.js';
export { DEFAULT_INPUT_TIMEOUT_MS } from '../agent/run/control.js';
export type {
  AnswerResult,
  ApprovalDecision,
  FailureChoice,
  PendingRequest,
  RequestAnswer,
} from '../agent/run/requests.js';
export { DEFAULT_MAX_STEPS, type PlanMode } from '../agent/run/run-agent.js';
export { originOf } from '../model/base-url.js';

export { EndpointTrustError } from '../model/endpoint-trust.js';
export { trustBaseUrl } from '../model/trust-base-url.js';
export {
  describeWorkspaceModel,
  rememberWorkspaceModel,
  WorkspaceModelError,
} from '../model/workspace-model.js';
export { findInstructions, type InstructionsFile } from '../prompts/project-instructions.js';
export { DEFAULT_QUEUE, type Run, type Session, type Task, type TaskStatus } from '../store/schema.js';
export type { StoredMessage } from '../store/session-store.js';
export { DEFAULT_SESSION_LIST_LIMIT } from '../store/session-store.js';
export { APPROVAL_MODES, type ApprovalMode, DEFAULT_APPROVAL_MODE } from '../tools/approval.js';
export { type BackgroundCommandInfo, stateText } from '../tools/background-command.js';
export { SANDBOX_MODES, type SandboxMode } from '../tools/sandbox-modes.js';
export { type WaitingReply, waitingText } from './continue-waiting.js';
export type { CommandGoal } from './custom-commands/command-goal.js';
export type { CustomCommand, LoadedCommands } from './custom-commands/load-commands.js';
export { MAX_DEFAULT_TITLE_CHARS } from './defaults.js';
export { RuntimeInputError } from './errors.js';
export { listMcpServers, type McpServerListing } from './mcp-list.js';
export { openWorkspaceStore } from './open-store.js';
export type { DrainSummary, QueueTaskResult } from './queue-worker.js';
export type { QueuedGoalOutcome } from './queued-goal.js';
export type { ResumeOutcome } from './resume.js';
export type { RunSettings } from './run-settings.js';
export {
  type GoalSettings,
  Runtime,
  type RuntimeOptions,
  type Submission,
  type SubmitOutcome,
  type WorkOutcome,
} from './runtime.js';
export { DEFAULT_SANDBOX_MODE, RuntimeSafety, type SafetyChoices } from './runtime-safety.js';
export { LAST_SESSION, SessionBook, type SessionDetail, type SessionSummary } from './session-book.js';
export { compactionSummary, type HistoryEntry, sessionHistory } from './session-history.js';
export { MANUAL_COMPLETION_SUMMARY, TaskBoard, type TaskTreeNode, taskTree } from './task-board.js';
export { NEEDS_INPUT_PREFIX, type WaitingFor, type WaitingSession } from './waiting-session.js';
export { apiPlan, apiRun, apiSession, apiTask } from './wire-shapes.js';
