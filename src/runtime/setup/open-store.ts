import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BUSY_TIMEOUT_MS, defaultDatabasePath } from '../../store/defaults.js';
import { IdLookupError } from '../../store/id-prefix.js';
import { openStore } from '../../store/open-store.js';
import type { Store } from '../../store/ports.js';
import {
  StoreBusyError,
  StoreReadOnlyError,
  StoreVersionError,
  TaskStoreError,
} from '../../store/store-errors.js';
import { isPostgresUrl, parsePostgresUrl, redactStoreUrl, withoutPassword } from '../../store/store-url.js';
import { Workspace } from '../../tools/workspace/index.js';
import { errorMessage } from '../../util/error-message.js';
import { originHere } from './database-origin.js';
import { RuntimeInputError } from './errors.js';
import { chosenStore, type StoreChoice } from './store-choice.js';

/** Where a workspace's data lives: the folder, and the database file (default inside it) or a shared store. */
export interface StoreLocation {
  /** The workspace folder; it must exist. */
  cwd: string;
  /** The database file, relative to the folder the user typed it in; `<workspace>/.taskweave/taskweave.db` when not given. */
  db?: string;
  /**
   * A shared store's URL (`postgres://…`), over `TASKWEAVE_STORE` and the user config's `store`;
   * the SQLite file when none of them is set.
   */
  store?: string;
  /** The environment to read `TASKWEAVE_STORE` and the user config from; the process's when not given. */
  env?: NodeJS.ProcessEnv;
}

/** An open workspace and its store. */
export interface OpenedWorkspace {
  workspace: Workspace;
  /** The SQLite file, or a shared store's URL without its password (for messages). */
  databasePath: string;
  store: Store;
  /**
   * A store shared by several workspaces and machines: where it was created says nothing about
   * whose its work is (the copied-database check of database-origin.ts does not apply).
   */
  shared?: boolean;
}

/**
 * Opens the workspace folder (unless already open) and its store. With `create`, a missing database file is created;
 * without, a missing file reads as an empty store and nothing is written to disk. With
 * `readOnly` (commands that only list or show), nothing is ever written: a write-protected file
 * or folder can be read. A database
 * written by a newer taskweave is a RuntimeInputError.
 */
export async function openWorkspaceStore(
  location: StoreLocation,
  options: { create?: boolean; readOnly?: boolean; workspace?: Workspace } = {},
): Promise<OpenedWorkspace> {
  const workspace = options.workspace ?? (await Workspace.open(location.cwd));
  const choice = await chosenStore({ store: location.store, env: location.env });
  if (choice !== undefined) {
    if (location.db !== undefined) {
      throw new RuntimeInputError(
        `--db and a shared store (${choice.source}: ${redactStoreUrl(choice.url)}) were both given: use one of them.`,
      );
    }
    return { workspace, ...(await openSharedStore(choice)) };
  }
  const databasePath =
    location.db === undefined
      ? defaultDatabasePath(workspace.root)
      : path.resolve(process.cwd(), location.db);
  try {
    const created = options.create === true && !existsSync(databasePath);
    const store = await openStore(databasePath, { create: options.create, readOnly: options.readOnly });
    if (options.create && location.db === undefined) await ignoreOwnFolder(path.dirname(databasePath));
    // A new database records the workspace it was created for (see database-origin.ts).
    if (created) await store.origin.record(originHere(workspace.root));
    return { workspace, databasePath, store };
  } catch (error) {
    if (error instanceof StoreVersionError || error instanceof StoreReadOnlyError)
      throw new RuntimeInputError(error.message, { cause: error });
    if (String((error as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY')) {
      throw new StoreBusyError(
        `The database ${databasePath} is locked by another process (waited ${BUSY_TIMEOUT_MS / 1000} s): another taskweave or a program holding it open. Try again once it is done.`,
        { cause: error },
      );
    }
    const unusable = unusableDatabase(error, databasePath);
    if (unusable !== undefined) throw new RuntimeInputError(unusable, { cause: error });
    throw error;
  }
}

/**
 * Opens the shared store a URL names (PostgreSQL): a bad URL, a server that cannot be reached,
 * refused credentials or a database of a newer taskweave are RuntimeInputErrors whose messages
 * never hold the password. The driver is loaded only then (openStore): the SQLite path never loads it.
 */
async function openSharedStore(choice: StoreChoice): Promise<Omit<OpenedWorkspace, 'workspace'>> {
  const shown = redactStoreUrl(choice.url);
  if (!isPostgresUrl(choice.url)) {
    throw new RuntimeInputError(
      `The store ${shown} (from ${choice.source}) is not one taskweave can open: give a postgres:// or postgresql:// URL, or leave it out for the workspace's SQLite file.`,
    );
  }
  let url: string;
  try {
    url = parsePostgresUrl(choice.url);
  } catch (error) {
    throw new RuntimeInputError(`${errorMessage(error)} (from ${choice.source})`);
  }
  let store: Store;
  try {
    store = await openStore(url);
  } catch (error) {
    if (error instanceof StoreVersionError) throw new RuntimeInputError(error.message);
    // No `cause`: the driver's error may carry the connection settings, password included.
    throw new RuntimeInputError(
      `Cannot open the store ${shown} (from ${choice.source}): ${withoutPassword(errorMessage(error), choice.url)}.`,
    );
  }
  return { databasePath: shown, store, shared: true };
}

/**
 * What `.taskweave/.gitignore` holds: everything in the folder (the database, its journal files,
 * this file) stays out of the user's `git status`, except a project config (`config.json`),
 * which can be committed.
 */
export const OWN_FOLDER_GITIGNORE =
  '# taskweave keeps its database here; only the project config is meant for git.\n*\n!config.json\n';

/** Writes `.taskweave/.gitignore` unless one is there (the user may have their own). */
async function ignoreOwnFolder(folder: string): Promise<void> {
  try {
    await writeFile(path.join(folder, '.gitignore'), OWN_FOLDER_GITIGNORE, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** SQLite's codes for a file that cannot be the database: it is something else, or cannot be opened. */
const UNUSABLE_DATABASE_CODES: Record<string, string> = {
  SQLITE_NOTADB: 'is not an SQLite database',
  SQLITE_CORRUPT: 'is a damaged SQLite database',
  SQLITE_CANTOPEN: 'cannot be opened (is its folder missing, or is it a folder?)',
  SQLITE_READONLY: 'is read-only',
  SQLITE_PERM: 'may not be written (permissions)',
};

/** The message for a database file the user pointed at that cannot be used, naming it. */
function unusableDatabase(error: unknown, databasePath: string): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  // SQLITE_READONLY_DIRECTORY and the like: a folder or `-shm` file this user may not write.
  const reason =
    UNUSABLE_DATABASE_CODES[code] ??
    (code.startsWith('SQLITE_READONLY_') ? 'or its folder may not be written by this user' : undefined);
  if (reason === undefined) return undefined;
  return `The database file ${databasePath} ${reason}. Point --db at a taskweave database (or at a new file), or leave --db out to use <workspace>/.taskweave/taskweave.db.`;
}

/** Runs a store call, turning the store's refusals (unknown id, a change not allowed) into RuntimeInputErrors. */
export async function asUserError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof IdLookupError) {
      const code = error.reason === 'unknown' ? 'not_found' : 'bad_input';
      throw new RuntimeInputError(error.message, { cause: error, code });
    }
    if (error instanceof TaskStoreError)
      throw new RuntimeInputError(error.message, { cause: error, code: 'conflict' });
    throw error;
  }
}
