import { existsSync } from 'node:fs';
import type { Async, Store } from '../ports.js';
import { StoreBusyError, StoreGoneError } from '../store-errors.js';
import { ChangeStore } from './change-store.js';
import { CommandStore } from './command-store.js';
import { BUSY_TIMEOUT_MS, openDatabase, type Synchronous } from './database.js';
import { ImageStore } from './image-store.js';
import { OriginStore } from './origin-store.js';
import { RequestStore } from './request-store.js';
import { SessionStore } from './session-store.js';
import { SqliteSignals } from './sqlite-signals.js';
import { sqliteTransactionRunner } from './sqlite-transaction.js';
import { StoreFileGuard } from './store-file-guard.js';
import { TaskStore } from './task-store.js';
import { UsageStore } from './usage-store.js';

export interface OpenSqliteStoreOptions {
  /** The database file, or `:memory:`. */
  path: string;
  /**
   * Create the file when it does not exist (commands that add work). Without it a missing file
   * reads as an empty store and nothing is written to disk: listing tasks in a folder taskweave
   * never worked in must not leave a `.taskweave` folder behind.
   */
  create?: boolean;
  synchronous?: Synchronous;
  /** Open an existing file for reading only (see OpenDatabaseOptions.readOnly); a missing one reads as empty. */
  readOnly?: boolean;
  now?: () => number;
}

/** Opens the SQLite implementation of the store ports (migrated, WAL, foreign keys on). */
export function openSqliteStore(options: OpenSqliteStoreOptions): Store {
  const file =
    options.path === ':memory:' || options.create || existsSync(options.path) ? options.path : ':memory:';
  const db = openDatabase({
    path: file,
    synchronous: options.synchronous,
    readOnly: options.readOnly === true && file !== ':memory:',
  });
  const fileGuard = file === ':memory:' || options.readOnly ? undefined : new StoreFileGuard(file);
  // Inside a write transaction the file was checked when it began (guardedTransactions): the
  // writes of a journal's group skip the stat and read each would cost.
  const guard = fileGuard && {
    path: fileGuard.path,
    check: () => {
      if (!db.sqlite.inTransaction) fileGuard.check();
    },
  };
  // Each store tells the signals of its own writes: task changes, logged events, answers.
  const signals = new SqliteSignals(db.sqlite);
  const tasks = new TaskStore(db, { now: options.now, signals });
  const sessions = new SessionStore(db, { now: options.now, signals });
  return {
    tasks: asyncPort(tasks, guard),
    plans: asyncPort(tasks, guard),
    sessions: asyncPort(sessions, guard),
    commands: asyncPort(new CommandStore(db, { now: options.now }), guard),
    changes: asyncPort(new ChangeStore(db, { now: options.now }), guard),
    origin: asyncPort(new OriginStore(db), guard),
    images: asyncPort(new ImageStore(db, { now: options.now }), guard),
    usage: asyncPort(new UsageStore(db), guard),
    requests: asyncPort(new RequestStore(db, { now: options.now, signals }), guard),
    location: options.path,
    signals,
    transaction: guardedTransactions(sqliteTransactionRunner(db.sqlite), fileGuard),
    close: async () => {
      signals.close();
      fileGuard?.close();
      db.close();
    },
  };
}

/** What the ports need of the file guard. */
type FileCheck = Pick<StoreFileGuard, 'path' | 'check'>;

/**
 * The synchronous store as an async port: each method's result (or thrown error) comes back as
 * a settled promise. The SQLite work itself still happens inside the call, in its transaction.
 */
function asyncPort<T extends object>(target: T, guard: FileCheck | undefined): Async<T> {
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(target))) {
    const method: unknown = Reflect.get(target, name);
    if (name === 'constructor' || typeof method !== 'function') continue;
    port[name] = async (...args) => {
      guard?.check();
      try {
        return method.apply(target, args);
      } catch (error) {
        throw storeError(error, guard);
      }
    };
  }
  return port as Async<T>;
}

/** Transactions whose failures (a lock past the busy timeout, a file gone) read like the ports'. */
function guardedTransactions(
  run: Store['transaction'],
  guard: StoreFileGuard | undefined,
): Store['transaction'] {
  return async (work) => {
    guard?.check();
    try {
      return await run(work);
    } catch (error) {
      throw storeError(error, guard);
    }
  };
}

/** A lock held by another process past the busy timeout, said plainly; other errors as they are. */
function storeError(error: unknown, guard: FileCheck | undefined): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
    return new StoreBusyError(
      `The database ${guard?.path ?? ''} is locked by another process (waited ${BUSY_TIMEOUT_MS / 1000} s): another taskweave or a program holding it open. Try again once it is done.`,
      { cause: error },
    );
  }
  if (
    guard !== undefined &&
    typeof code === 'string' &&
    /^SQLITE_(CORRUPT|NOTADB|IOERR|READONLY)/.test(code)
  ) {
    // A file changed under the connection shows first as one of these: name the likely cause.
    try {
      guard.check();
    } catch (gone) {
      return gone;
    }
  }
  return error;
}

export { StoreBusyError, StoreGoneError };
