import { sql } from 'drizzle-orm';
import type { PgDb } from './connection.js';

/*
 * Transaction-scoped advisory locks (two keys: a class, then a hash of the name). They order the
 * writers that must not interleave, on every machine alike, and end with the transaction.
 */

/** taskweave's classes of advisory locks (the first key). */
const LOCK_CLASS = { queue: 7462 } as const;

/**
 * Holds a queue until the transaction ends: its claims (the serial rule) and the sequence of
 * what is added to it, one writer at a time.
 */
export async function lockQueue(db: PgDb, queue: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS.queue}, hashtext(${queue}))`);
}
