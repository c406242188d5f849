/**
 * A request a run makes of the user and its answer, as both stores record them: the shared
 * shapes and the one row rule.
 */
import type { RequestKind, requests, StoredRequest } from './sqlite/schema.js';

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
