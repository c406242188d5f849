import { sql } from 'drizzle-orm';
import type { PgDb } from './connection.js';

/** The NOTIFY channels of the store: a queue whose tasks changed, a session with a new event, an answered request. */
export const CHANNELS = {
  tasks: 'taskweave_tasks',
  events: 'taskweave_events',
  answers: 'taskweave_answers',
} as const;

/** Announces (at commit) that a task of `queue` changed: a waiting worker may claim now. */
export async function notifyQueue(db: PgDb, queue: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNELS.tasks}, ${queue})`);
}

/** Announces (at commit) that a request was answered, by its id: the run waiting for it takes it. */
export async function notifyAnswer(db: PgDb, requestId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNELS.answers}, ${requestId})`);
}
