import type { PGlite } from '@electric-sql/pglite';
import type { Store } from '../ports.js';
import { redactStoreUrl } from '../store-url.js';
import { PgChangeStore } from './change-store.js';
import { PgCommandStore } from './command-store.js';
import { connectPglite, connectServer, type PgConnection } from './connection.js';
import { PgContext } from './context.js';
import { PgImageStore } from './image-store.js';
import { migratePostgres } from './migrate.js';
import { PgOriginStore } from './origin-store.js';
import { PgRequestStore } from './request-store.js';
import { PgSessionStore } from './session-store.js';
import { PgSignals } from './signals.js';
import { PgTaskStore } from './task-store.js';
import { PgUsageStore } from './usage-store.js';

export interface OpenPostgresStoreOptions {
  /** A PostgreSQL server's URL (`postgres://user:password@host:5432/db`), or a PGlite database in this process. */
  target: { url: string } | { pglite: PGlite; own?: boolean };
  /**
   * The PostgreSQL schema the tables live in (created if missing); the connection's default
   * search path when not given. Tests give each store a schema of its own.
   */
  schema?: string;
  now?: () => number;
}

/**
 * Opens the PostgreSQL implementation of the store ports: connects, applies the migrations this
 * version knows (once, under an advisory lock, whoever starts first), and returns the ports.
 * Its `location` is the URL without its password.
 */
/**
 * How long a worker's journal holds streamed events before writing them (see Store): short,
 * since a server elsewhere shows them only once written; long enough that a model's burst of
 * deltas shares one commit.
 */
const PG_STREAMED_FLUSH_MS = 10;

export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<Store> {
  const { target } = options;
  const connection: PgConnection =
    'url' in target
      ? await connectServer({ url: target.url, searchPath: options.schema })
      : await connectPglite({ client: target.pglite, searchPath: options.schema, own: target.own });
  try {
    await migratePostgres(connection.db, undefined, { schema: options.schema });
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
  const ctx = new PgContext(connection.db);
  const tasks = new PgTaskStore(ctx, options.now);
  return {
    tasks,
    plans: tasks,
    sessions: new PgSessionStore(ctx, options.now),
    commands: new PgCommandStore(ctx, options.now),
    changes: new PgChangeStore(ctx, options.now),
    origin: new PgOriginStore(ctx),
    images: new PgImageStore(ctx, options.now),
    requests: new PgRequestStore(ctx, options.now),
    usage: new PgUsageStore(ctx),
    location: 'url' in target ? redactStoreUrl(target.url) : 'pglite (in this process)',
    signals: new PgSignals(connection),
    streamedFlushMs: PG_STREAMED_FLUSH_MS,
    transaction: (work) => ctx.transaction(() => work()),
    close: () => connection.close(),
  };
}
