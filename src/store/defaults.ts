import path from 'node:path';

/** The queue a task joins when none is named. */
export const DEFAULT_QUEUE = 'default';

/** The queue a plan's tasks join unless told otherwise. */
export function planQueue(planId: string): string {
  return `plan:${planId}`;
}

/** How many sessions a list returns when not told. */
export const DEFAULT_SESSION_LIST_LIMIT = 50;

/** Where a workspace keeps its database. */
export function defaultDatabasePath(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.taskweave', 'taskweave.db');
}

/** How long a connection waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
