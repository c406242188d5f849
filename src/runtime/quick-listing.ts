// The rows `tasks list` and `sessions list` show, read without the ORM (store/sqlite/quick-read.ts,
// through the room's index.ts), for the CLI's quick path (src/cli/quick-listing.ts). Undefined
// whenever the full path should answer.

import path from 'node:path';
import { defaultDatabasePath } from '../store/defaults.js';
import { openQuickRead } from '../store/sqlite/index.js';
import { Workspace } from '../tools/workspace/index.js';
import { listed, type SessionSummary, summarize } from './books/session-summary.js';
import { unended, withLoggedCalls } from './books/spending.js';
import { listedTasks, type TaskTreeNode } from './books/task-tree.js';
import { chosenStore } from './setup/store-choice.js';

export { DEFAULT_QUEUE, DEFAULT_SESSION_LIST_LIMIT } from '../store/defaults.js';

/** What a listing shows, read once. */
export interface QuickListing {
  tasks(options: { queue?: string; all?: boolean }): TaskTreeNode[];
  /** The most recently active sessions, up to `limit`. */
  sessions(limit: number): SessionSummary[];
}

/**
 * Reads the rows of the workspace `cwd`'s database (or the file `db`, relative to the current
 * folder) for `command`, or answers undefined when this path cannot: the folder or the file is
 * missing, the database is of another version or cannot be read in place.
 */
export async function readQuickListing(
  location: { cwd: string; db?: string },
  command: 'tasks' | 'sessions',
  sessionLimit: number,
): Promise<QuickListing | undefined> {
  // A shared store (TASKWEAVE_STORE, or the user config's `store`) is read by the full path.
  if ((await chosenStore({})) !== undefined) return undefined;
  let workspace: Workspace;
  try {
    workspace = await Workspace.open(location.cwd);
  } catch {
    return undefined;
  }
  const file =
    location.db === undefined
      ? defaultDatabasePath(workspace.root)
      : path.resolve(process.cwd(), location.db);
  const read = await openQuickRead(file);
  if (read === undefined) return undefined;
  try {
    if (command === 'tasks') {
      const rows = read.tasks();
      return { tasks: (options) => listedTasks(rows, options), sessions: () => [] };
    }
    const sessions = read.sessions(sessionLimit);
    const runs = read.runs(sessions.map((session) => session.id));
    const summaries = sessions
      .map((session) => {
        const sessionRuns = runs.get(session.id) ?? [];
        // A run not ended yet counts its calls so far, as the full path does (books/spending.ts).
        if (!sessionRuns.some(unended)) return summarize(session, sessionRuns);
        return summarize(session, withLoggedCalls(sessionRuns, read.modelCalls(session.id)));
      })
      .filter(listed);
    return { tasks: () => [], sessions: (limit) => summaries.slice(0, limit) };
  } catch {
    return undefined;
  } finally {
    read.close();
  }
}
