/**
 * A request a run makes of the user and its answer, as both stores record them: the shared
 * shapes and the one row rule.
 */
import type { StoredRequest } from './rows.js';
import type { RequestKind } from './vocabulary.js';

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

/** The row a request is recorded as. */
export function requestRow(
  input: RequestInput,
  askedAt: number,
): Pick<StoredRequest, 'id' | 'sessionId' | 'runId' | 'kind' | 'taskId' | 'choices' | 'askedAt'> {
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

/** The requests runs make of the user and their answers, given once, from any process. */
export interface RequestLog {
  /** Records a request (again: nothing changes; a resumed plan proposes the same plan id). */
  ask(input: RequestInput): Promise<StoredRequest>;
  /** The request with this id, answered or not. */
  get(id: string): Promise<StoredRequest | undefined>;
  /** Stores the answer to a request, unless it has one: the first answer wins. */
  answer(id: string, given: GivenAnswer): Promise<AnswerOutcome>;
  /**
   * Marks an answered request taken by `by` (the worker going on with it); undefined when it has
   * no answer. Taken before, it stays as it was and comes back with `first` false.
   */
  take(id: string, by: string): Promise<TakenAnswer | undefined>;
  /** The session's requests, oldest first. */
  list(sessionId: string): Promise<StoredRequest[]>;
}
