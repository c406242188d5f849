/*
 * Face: a workspace's books opened without a model, for the commands that only read or manage
 * them (`tasks`, `sessions`, `export`): the store, the task board, the sessions and their
 * history. Loads the database but no model SDK or agent loop; checkpoints are in checkpoints.ts.
 */

export { SessionBook, type SessionDetail } from './books/session-book.js';
export { compactionSummary, type HistoryEntry, sessionHistory } from './books/session-history.js';
export type { SessionSummary } from './books/session-summary.js';
export { TaskBoard } from './books/task-board.js';
export type { TaskTreeNode } from './books/task-tree.js';
export { openWorkspaceStore } from './setup/open-store.js';
