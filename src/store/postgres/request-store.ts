import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import {
  type AnswerOutcome,
  type GivenAnswer,
  type RequestInput,
  type RequestLog,
  requestRow,
  type TakenAnswer,
} from '../requests.js';
import type { StoredRequest } from '../rows.js';
import { notifyAnswer } from './channels.js';
import type { PgContext } from './context.js';
import { requests } from './schema.js';

/** The requests and their answers, in PostgreSQL, with the contracts of the SQLite RequestStore. */
export class PgRequestStore implements RequestLog {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  async ask(input: RequestInput): Promise<StoredRequest> {
    await this.ctx.db
      .insert(requests)
      .values(requestRow(input, this.now()))
      .onConflictDoNothing({ target: requests.id });
    return (await this.get(input.id))!;
  }

  async get(id: string): Promise<StoredRequest | undefined> {
    const [row] = await this.ctx.db.select().from(requests).where(eq(requests.id, id));
    return row;
  }

  async answer(id: string, given: GivenAnswer): Promise<AnswerOutcome> {
    // One statement: of two answers at once, the row lock lets one update and the other re-check
    // `answer is null` after it, find it set, and update nothing.
    return this.ctx.transaction(async () => {
      const [row] = await this.ctx.db
        .update(requests)
        .set({ answer: given.answer, answeredBy: given.by, answeredAt: this.now() })
        .where(and(eq(requests.id, id), isNull(requests.answer)))
        .returning();
      if (row) {
        await notifyAnswer(this.ctx.db, id);
        return { ok: true, request: row };
      }
      const request = await this.get(id);
      return request ? { ok: false, reason: 'answered', request } : { ok: false, reason: 'unknown' };
    });
  }

  async take(id: string, by: string): Promise<TakenAnswer | undefined> {
    const [row] = await this.ctx.db
      .update(requests)
      .set({ takenBy: by, takenAt: this.now() })
      .where(and(eq(requests.id, id), isNotNull(requests.answer), isNull(requests.takenBy)))
      .returning();
    if (row) return { request: row, first: true };
    const request = await this.get(id);
    return request?.answer != null ? { request, first: false } : undefined;
  }

  async list(sessionId: string): Promise<StoredRequest[]> {
    return this.ctx.db
      .select()
      .from(requests)
      .where(eq(requests.sessionId, sessionId))
      .orderBy(requests.askedAt, requests.id);
  }
}
