/*
 * Face: a workspace's books opened without a model, for the commands that only read or manage
 * them (`tasks`, `sessions`, `export`): the store, the task board and the sessions. Loads the
 * database but no model SDK, schema library or agent code (`tasks list` and `sessions list` go
 * through it); a session's history is in history.ts, checkpoints in checkpoints.ts.
 */

export { SessionBook, type SessionDetail } from './books/session-book.js';
export type { SessionSummary } from './books/session-summary.js';
export { TaskBoard } from './books/task-board.js';
export type { TaskTreeNode } from './books/task-tree.js';
export { openWorkspaceStore } from './setup/open-store.js';
