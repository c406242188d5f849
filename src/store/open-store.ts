import type { Store } from './ports.js';
import { isPostgresUrl } from './store-url.js';

/** How a store is opened: the SQLite file's settings (a PostgreSQL URL takes only the clock). */
export interface OpenStoreOptions {
  /**
   * SQLite: create the file when it does not exist (commands that add work). Without it a missing
   * file reads as an empty store and nothing is written to disk.
   */
  create?: boolean;
  /** SQLite: open an existing file for reading only; a missing one reads as empty. */
  readOnly?: boolean;
  /** SQLite: `FULL` (the default: a commit survives a power loss) or `NORMAL` (throw-away databases, benchmarks). */
  synchronous?: 'NORMAL' | 'FULL';
  now?: () => number;
}

/**
 * Opens the store at `location`: a PostgreSQL server for a `postgres://` or `postgresql://` URL
 * (checked by the caller: parsePostgresUrl), else the SQLite file at that path (or `:memory:`).
 * Each implementation is loaded only when chosen: a PostgreSQL store never loads better-sqlite3,
 * an SQLite store never loads pg.
 */
export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore({ target: { url: location }, now: options.now });
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore({ path: location, ...options });
}
