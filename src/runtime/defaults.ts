/*
 * The defaults front ends show in their help texts. This file loads no SDK, no database and no
 * agent code: `taskweave --help` imports it.
 */
export { DEFAULT_INPUT_TIMEOUT_MS, DEFAULT_MAX_STEPS } from '../agent/defaults.js';
export { DEFAULT_PLAN_CONCURRENCY } from '../plan/scheduler.js';
export { DEFAULT_QUEUE, DEFAULT_SESSION_LIST_LIMIT } from '../store/defaults.js';
export { APPROVAL_MODES, type ApprovalMode } from '../tools/approval.js';
export { SANDBOX_MODES, type SandboxMode } from '../tools/sandbox-modes.js';
export { ISOLATION_MODES, type IsolationMode } from '../work/isolation.js';
export { MAX_DEFAULT_TITLE_CHARS } from './setup/task-defaults.js';
