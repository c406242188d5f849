import { RUN_STATUSES } from '../events/run-status.js';
import { TASK_STATES } from '../plan/task-graph.js';

/*
 * The values the store's text columns may hold (each table checks them with a CHECK
 * constraint), shared by the SQLite schema and the PostgreSQL one.
 */

export const SESSION_STATUSES = ['idle', 'running'] as const;
/** Whether a run is going on in a session. */
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const RUN_MODES = ['simple', 'complex'] as const;
/** Simple: tool calls, then an answer. Complex: a plan whose tasks the orchestrator tracks. */
export type RunMode = (typeof RUN_MODES)[number];

/** A run's status: `running` until it ends, then how it ended (the events' RunStatus). */
export const RUN_STATES = ['running', ...RUN_STATUSES] as const;
/** A run's status: `running` until it ends, then how it ended. */
export type RunState = (typeof RUN_STATES)[number];

export const PLAN_STATUSES = ['proposed', 'approved', 'rejected', 'completed', 'aborted'] as const;
/** Where a plan is in its life: shown, accepted or refused by the user, then finished or aborted. */
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** The plan's task states: a plan task and a queue task share one vocabulary. */
export const TASK_STATUSES = TASK_STATES;
/** The state of one task of the to-do list or queue. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
/** Who a conversation message is from. */
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** Where a change record's contents are kept: the repository's object database, or taskweave's folder. */
export const BLOB_STORES = ['git', 'folder'] as const;
/** Where a change record's contents are kept. */
export type BlobStoreKind = (typeof BLOB_STORES)[number];

export const RESTORE_KINDS = ['undo', 'rewind', 'redo'] as const;
/** What a restore does: undo a step, rewind to one, or redo what an undo took back. */
export type RestoreKind = (typeof RESTORE_KINDS)[number];

export const RESTORE_MODES = ['code', 'conversation', 'both'] as const;
/** What a restore takes back: the files, the conversation, or both. */
export type RestoreMode = (typeof RESTORE_MODES)[number];

export const RESTORE_STATUSES = ['pending', 'done'] as const;
/** Whether a restore is under way (written before any file is touched) or done. */
export type RestoreStatus = (typeof RESTORE_STATUSES)[number];

export const REQUEST_KINDS = ['input', 'approval', 'plan', 'failure'] as const;
/** What a run asked the user: a question, a tool call's approval, a plan's approval, a failed task's fate. */
export type RequestKind = (typeof REQUEST_KINDS)[number];
