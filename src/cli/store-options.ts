import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { defaultDatabasePath, openDatabase, StoreVersionError, type TaskweaveDb } from '../store/database.js';
import { SessionStore } from '../store/session-store.js';
import { TaskStore } from '../store/task-store.js';
import { Workspace } from '../tools/workspace.js';
import { UsageError } from './usage-error.js';

/** The options every command over the store takes, as commander parses them. */
export interface StoreCliOptions {
  /** The workspace folder; it must exist. */
  cwd: string;
  /** The database file; `<workspace>/.taskweave/taskweave.db` when not given. */
  db?: string;
}

export interface OpenStoreOptions {
  /**
   * Create the database file when it does not exist (commands that add work). Without it a
   * missing file reads as an empty store and nothing is written to disk: listing tasks in a
   * folder taskweave never worked in must not leave a `.taskweave` folder behind.
   */
  create?: boolean;
}

/** An open store of one workspace; close it when done. */
export interface OpenedStore {
  /** The workspace folder, resolved through symbolic links. */
  workspaceRoot: string;
  /** The database file, absolute. */
  databasePath: string;
  db: TaskweaveDb;
  tasks: TaskStore;
  sessions: SessionStore;
  close(): void;
}

/** Adds `-C, --cwd <dir>` and `--db <file>` to a command. */
export function addStoreOptions(command: Command): Command {
  return command
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('--db <file>', 'the database file (default <workspace>/.taskweave/taskweave.db)');
}

/**
 * Opens the store a command's `--cwd` and `--db` point to. A missing workspace folder, and a
 * database written by a newer taskweave, are usage errors (exit 2); a file that is not a
 * database or cannot be read fails as it is (exit 1).
 */
export async function openStoreFor(
  options: StoreCliOptions,
  openOptions: OpenStoreOptions = {},
): Promise<OpenedStore> {
  const workspace = await Workspace.open(options.cwd);
  // A path typed on the command line is relative to the folder the user typed it in, not to --cwd.
  const databasePath =
    options.db === undefined ? defaultDatabasePath(workspace.root) : path.resolve(process.cwd(), options.db);
  const create = openOptions.create ?? false;
  let db: TaskweaveDb;
  try {
    db = openDatabase({ path: create || existsSync(databasePath) ? databasePath : ':memory:' });
  } catch (error) {
    if (error instanceof StoreVersionError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  return {
    workspaceRoot: workspace.root,
    databasePath,
    db,
    tasks: new TaskStore(db),
    sessions: new SessionStore(db),
    close: () => db.close(),
  };
}

/** Opens the store, runs `work` with it and closes it, also when `work` throws. */
export async function withStore<T>(
  options: StoreCliOptions,
  openOptions: OpenStoreOptions,
  work: (store: OpenedStore) => T | Promise<T>,
): Promise<T> {
  const store = await openStoreFor(options, openOptions);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
