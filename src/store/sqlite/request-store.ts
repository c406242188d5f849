import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { SyncPort } from '../ports.js';
import type { AnswerOutcome, GivenAnswer, RequestInput, RequestLog, TakenAnswer } from '../requests.js';
import { requestRow } from '../requests.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { requests, type StoredRequest } from './schema.js';
import type { SqliteSignals } from './sqlite-signals.js';

export type { AnswerOutcome, GivenAnswer, RequestInput, TakenAnswer };

export interface RequestStoreOptions {
  now?: () => number;
  /** Told of every answer stored (the run waiting for it looks). */
  signals?: Pick<SqliteSignals, 'answerGiven'>;
}

/**
 * The requests runs made of the user and their answers: an answer given in any process (or on
 * any machine sharing the store) is stored here, once, and the run that waits for it takes it.
 */
export class RequestStore implements SyncPort<RequestLog> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;
  private readonly signals: RequestStoreOptions['signals'];

  constructor(db: TaskweaveDb, options: RequestStoreOptions = {}) {
    this.orm = db.drizzle;
    this.now = options.now ?? Date.now;
    this.signals = options.signals;
  }

  /** Records a request (again: nothing changes; a resumed plan proposes the same plan id). */
  ask(input: RequestInput): StoredRequest {
    this.orm
      .insert(requests)
      .values(requestRow(input, this.now()))
      .onConflictDoNothing({ target: requests.id })
      .run();
    return this.get(input.id)!;
  }

  /** The request with this id, answered or not. */
  get(id: string): StoredRequest | undefined {
    return this.orm.select().from(requests).where(eq(requests.id, id)).get();
  }

  /** Stores the answer to a request, unless it has one: the first answer wins. */
  answer(id: string, given: GivenAnswer): AnswerOutcome {
    const row = this.orm
      .update(requests)
      .set({ answer: given.answer, answeredBy: given.by, answeredAt: this.now() })
      .where(and(eq(requests.id, id), isNull(requests.answer)))
      .returning()
      .get();
    if (row) {
      this.signals?.answerGiven(row.id);
      return { ok: true, request: row };
    }
    const request = this.get(id);
    return request ? { ok: false, reason: 'answered', request } : { ok: false, reason: 'unknown' };
  }

  /**
   * Marks an answered request taken by `by` (the worker going on with it); undefined when it
   * has no answer. Taken before, it stays as it was and comes back with `first` false.
   */
  take(id: string, by: string): TakenAnswer | undefined {
    const row = this.orm
      .update(requests)
      .set({ takenBy: by, takenAt: this.now() })
      .where(and(eq(requests.id, id), isNotNull(requests.answer), isNull(requests.takenBy)))
      .returning()
      .get();
    if (row) return { request: row, first: true };
    const request = this.get(id);
    return request?.answer != null ? { request, first: false } : undefined;
  }

  /** The session's requests, oldest first. */
  list(sessionId: string): StoredRequest[] {
    return this.orm
      .select()
      .from(requests)
      .where(eq(requests.sessionId, sessionId))
      .orderBy(requests.askedAt, requests.id)
      .all();
  }
}
