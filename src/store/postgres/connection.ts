import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool, PoolClient } from 'pg';
import * as schema from './schema.js';

/** The drizzle handle over the PostgreSQL schema, whichever driver is under it (a pool, PGlite, a transaction). */
export type PgDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open connection to a PostgreSQL database: drizzle over it, notifications, and closing. */
export interface PgConnection {
  readonly db: PgDb;
  /**
   * Calls `onPayload` with each NOTIFY payload of `channel` until the returned function is
   * called. A real server keeps one connection of its own for every channel listened to.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The rows of a raw query, whichever driver ran it (both return `{ rows }`). */
export async function queryRows<T>(db: PgDb, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** How many of the pool's connections stay open while idle. */
const POOL_KEPT_OPEN = 2;

/** The first wait before a lost LISTEN connection is made again; it doubles up to the most. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 5_000;

/**
 * A connection to a PostgreSQL server through node-postgres: a pool for queries and
 * transactions (a transaction holds one client of it), one more client for LISTEN.
 */
export async function connectServer(options: { url: string; searchPath?: string }): Promise<PgConnection> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const config = {
    connectionString: options.url,
    // A server that does not answer is said within seconds, not after the OS's TCP timeout.
    connectionTimeoutMillis: 10_000,
    // Two connections stay open when idle (more close after 10 s): a worker between goals, or
    // a server between clients, starts its next writes without a new connection (its TCP and
    // SCRAM handshakes, several round trips) in the way of the first events.
    min: POOL_KEPT_OPEN,
    ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
  };
  const pool: Pool = new pg.Pool(config);
  // An idle client that loses its connection (the server restarts) is dropped, not thrown.
  pool.on('error', () => undefined);
  const db: PgDb = drizzle({ client: pool, schema });
  const channels = new Map<string, Set<(payload: string) => void>>();
  let listener: Promise<PoolClient> | undefined;
  let closed = false;
  let retryMs = RELISTEN_FIRST_MS;
  // The LISTEN client lost its connection (the server restarted, the backend was ended): a new
  // one listens on every channel again, retried with a growing delay while the server is away.
  // What was notified meanwhile is lost; the store's fallback polls cover that gap.
  const relisten = (lost: PoolClient) => {
    if (closed) return;
    lost.release(true);
    listener = undefined;
    resubscribeLater();
  };
  const resubscribeLater = () => {
    const timer = setTimeout(() => {
      if (closed || channels.size === 0) return;
      listenClient()
        .then(async (client) => {
          for (const channel of channels.keys()) await client.query(`LISTEN "${channel}"`);
          retryMs = RELISTEN_FIRST_MS;
        })
        .catch(() => {
          // The server is still away (or went again while listening): later, a while longer.
          retryMs = Math.min(retryMs * 2, RELISTEN_MAX_MS);
          if (listener === undefined) resubscribeLater();
        });
    }, retryMs);
    timer.unref();
  };
  const listenClient = () => {
    listener ??= pool.connect().then((client) => {
      client.on('notification', (message) => {
        for (const handler of channels.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      let lost = false;
      const onLost = () => {
        if (lost) return;
        lost = true;
        relisten(client);
      };
      client.on('error', onLost);
      client.on('end', onLost);
      return client;
    });
    // A connection that could not be made is tried again by the next listen.
    listener.catch(() => {
      listener = undefined;
    });
    return listener;
  };
  return {
    db,
    async listen(channel, onPayload) {
      const client = await listenClient();
      let handlers = channels.get(channel);
      if (handlers === undefined) {
        handlers = new Set();
        channels.set(channel, handlers);
        await client.query(`LISTEN "${channel}"`);
      }
      handlers.add(onPayload);
      return async () => {
        handlers.delete(onPayload);
      };
    },
    async close() {
      closed = true;
      if (listener !== undefined) (await listener.catch(() => undefined))?.release(true);
      await pool.end();
    },
  };
}

/**
 * A connection to a PGlite database (PostgreSQL compiled to WebAssembly, in this process): for
 * tests and trying things out. Closing it closes the PGlite only when `own` says it is ours.
 */
export async function connectPglite(options: {
  client: PGlite;
  searchPath?: string;
  own?: boolean;
}): Promise<PgConnection> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { client } = options;
  if (options.searchPath !== undefined) await client.exec(`SET search_path TO "${options.searchPath}"`);
  const db: PgDb = drizzle({ client, schema });
  const unlisteners: (() => Promise<void>)[] = [];
  return {
    db,
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      unlisteners.push(unlisten);
      return unlisten;
    },
    async close() {
      for (const unlisten of unlisteners.splice(0)) await unlisten().catch(() => undefined);
      if (options.own) await client.close();
    },
  };
}
