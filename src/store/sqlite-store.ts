import { existsSync } from 'node:fs';
import { CommandStore } from './command-store.js';
import { openDatabase, type Synchronous } from './database.js';
import type { Async, Store } from './ports.js';
import { SessionStore } from './session-store.js';
import { TaskStore } from './task-store.js';

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
  now?: () => number;
}

/** Opens the SQLite implementation of the store ports (migrated, WAL, foreign keys on). */
export function openSqliteStore(options: OpenSqliteStoreOptions): Store {
  const file =
    options.path === ':memory:' || options.create || existsSync(options.path) ? options.path : ':memory:';
  const db = openDatabase({ path: file, synchronous: options.synchronous });
  const tasks = new TaskStore(db, { now: options.now });
  const sessions = new SessionStore(db, { now: options.now });
  return {
    tasks: asyncPort(tasks),
    plans: asyncPort(tasks),
    sessions: asyncPort(sessions),
    commands: asyncPort(new CommandStore(db, { now: options.now })),
    location: options.path,
    close: async () => db.close(),
  };
}

/**
 * The synchronous store as an async port: each method's result (or thrown error) comes back as
 * a settled promise. The SQLite work itself still happens inside the call, in its transaction.
 */
function asyncPort<T extends object>(target: T): Async<T> {
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(target))) {
    const method: unknown = Reflect.get(target, name);
    if (name === 'constructor' || typeof method !== 'function') continue;
    port[name] = async (...args) => method.apply(target, args);
  }
  return port as Async<T>;
}
