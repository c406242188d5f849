import { hostname } from 'node:os';
import { answerMismatch, type RequestAnswer } from '../../agent/index.js';
import type { StoredRequest } from '../../store/rows.js';

/** An answer as the store keeps it (JSON text). */
export function encodeAnswer(answer: RequestAnswer): string {
  return JSON.stringify(answer);
}

/** A stored answer read back; undefined when there is none or it cannot be read. */
export function decodeAnswer(text: string | null): RequestAnswer | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as RequestAnswer;
    return typeof value === 'object' && value !== null && typeof value.kind === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why an answer does not fit a stored request (another kind, a choice not offered); undefined when it fits. */
export function storedAnswerMismatch(request: StoredRequest, answer: RequestAnswer): string | undefined {
  const choices = request.choices === null ? null : (JSON.parse(request.choices) as string[]);
  return answerMismatch({ id: request.id, kind: request.kind, choices }, answer);
}

/** "Request … was already answered" with who answered and when. */
export function alreadyAnswered(request: StoredRequest): string {
  const when = request.answeredAt === null ? '' : ` at ${new Date(request.answeredAt).toISOString()}`;
  return `Request ${request.id} was already answered (by ${request.answeredBy ?? 'someone else'}${when}); the first answer counts.`;
}

/** Who answers from this process, as the store records it: `<host> pid <pid>`. */
export function answererId(): string {
  return `${hostname()} pid ${process.pid}`;
}
