import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { type RequestKind, requests, type StoredRequest } from './schema.js';

/** A request a run makes of the user, as it is recorded when its event is logged. */
export interface RequestInput {
  id: string;
  sessionId: string;
  runId: string;
  kind: RequestKind;
  taskId?: string | null;
  /** The choices a failure decision offers. */
  choices?: readonly string[];
}

/** An answer as it is given: the answer itself (JSON) and who gave it. */
export interface GivenAnswer {
  /** JSON of the answer; the store keeps it as given. */
  answer: string;
  /** Who answered: a process on a host, for the "already answered" message. */
  by: string;
}

/**
 * Whether an answer was stored: the first answer to a request wins; a second is refused with
 * the request as it is (`answered`), an unknown id with `unknown`.
 */
export type AnswerOutcome =
  | { ok: true; request: StoredRequest }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'answered'; request: StoredRequest };

/**
 * Taking an answer: `first` when this call marked it taken, false when a worker had taken it
 * before (one that lost the task, whose successor goes on with the same answer).
 */
export type TakenAnswer = { request: StoredRequest; first: boolean };

/**
 * The requests runs made of the user and their answers: an answer given in any process (or on
 * any machine sharing the store) is stored here, once, and the run that waits for it takes it.
 */
export class RequestStore {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;

  constructor(db: TaskweaveDb, options: { now?: () => number } = {}) {
    this.orm = db.drizzle;
    this.now = options.now ?? Date.now;
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
    if (row) return { ok: true, request: row };
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

/** The row a request is recorded as. */
export function requestRow(input: RequestInput, askedAt: number): typeof requests.$inferInsert {
  return {
    id: input.id,
    sessionId: input.sessionId,
    runId: input.runId,
    kind: input.kind,
    taskId: input.taskId ?? null,
    choices: input.choices ? JSON.stringify(input.choices) : null,
    askedAt,
  };
}
