import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { PgDb } from './connection.js';

/** The NOTIFY channels of the store: a queue whose tasks changed, a session with a new event, an answered request. */
export const CHANNELS = {
  tasks: 'taskweave_tasks',
  events: 'taskweave_events',
  answers: 'taskweave_answers',
} as const;

/**
 * Announces (at commit) that a task of a queue changed, so that a waiting worker may claim now.
 * An expression over the changed row's queue column, returned by the statement that changes the
 * row (`update … returning …, pg_notify(…)`): no round trip of its own. A transaction's
 * identical notifications are delivered once. Its value is empty.
 */
export function queueNotice(queue: PgColumn): SQL<unknown> {
  return sql`pg_notify(${CHANNELS.tasks}, ${queue})`;
}

/** Announces (at commit) that a request was answered, by its id: the run waiting for it takes it. */
export async function notifyAnswer(db: PgDb, requestId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNELS.answers}, ${requestId})`);
}
