// The store-only parts of the runtime: listing tasks or sessions loads no model SDK or agent code.

import { openWorkspaceStore, SessionBook, TaskBoard } from '../../runtime/books.js';
import type { CheckpointBook } from '../../runtime/checkpoints.js';
import type { StoreCliOptions } from '../options.js';

/** A workspace's to-do list and sessions, for the commands that read or manage them. */
export interface WorkspaceAccess {
  workspaceRoot: string;
  tasks: TaskBoard;
  /** The session's checkpoints and the ways back (loaded when a command asks for them). */
  checkpoints: () => Promise<CheckpointBook>;
  sessions: SessionBook;
}

/**
 * Opens the workspace a command's `--cwd` and `--db` name, runs `work` with it and closes it,
 * also when `work` throws. Without `create`, a missing database reads as empty and nothing is
 * written to disk; with `readOnly`, the database is opened for reading only.
 */
export async function withWorkspace<T>(
  options: StoreCliOptions,
  openOptions: { create?: boolean; readOnly?: boolean },
  work: (access: WorkspaceAccess) => T | Promise<T>,
): Promise<T> {
  const { workspace, store } = await openWorkspaceStore(options, openOptions);
  try {
    return await work({
      workspaceRoot: workspace.root,
      checkpoints: async () => {
        const { CheckpointBook } = await import('../../runtime/checkpoints.js');
        return new CheckpointBook(store, new SessionBook(store), workspace.root);
      },
      tasks: new TaskBoard(store),
      sessions: new SessionBook(store),
    });
  } finally {
    await store.close();
  }
}
