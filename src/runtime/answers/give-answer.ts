import type { RequestAnswer, RunControl } from '../../agent/index.js';
import type { Store } from '../../store/ports.js';
import type { StoredRequest } from '../../store/rows.js';
import type { RuntimeInputErrorCode } from '../setup/errors.js';
import { reopenIfAnswered } from './reopen-answered.js';
import { alreadyAnswered, answererId, encodeAnswer, storedAnswerMismatch } from './stored-answer.js';
import { waitingFor, waitingRequestId } from './waiting-session.js';

/** Whether an answer was given, and why not (with the kind of refusal) when it was not. */
export type GivenAnswerResult = { ok: true } | { ok: false; error: string; code: RuntimeInputErrorCode };

/** Where a request waits: a run going on (here or in another process), or a session whose run ended waiting. */
type Waiting = { kind: 'run' } | { kind: 'session' } | { kind: 'gone'; reason: string };

/**
 * Answers a request of any run in the store, from any process: the answer is stored first (the
 * first answer wins; a second, here or on another machine, is refused as already answered), then
 * it reaches whoever waits. A run of this process waiting for it gets it at once; a run waiting
 * in another process hears of it through the store's signals (see AnswerWatch); a session whose
 * run ended waiting for it has its queue task put back in the queue, and the worker that claims
 * the task goes on with the answer (see takeStoredAnswer).
 */
export async function giveAnswer(
  ctx: { store: Store; localControl(requestId: string): RunControl | undefined },
  requestId: string,
  answer: RequestAnswer,
): Promise<GivenAnswerResult> {
  const { requests } = ctx.store;
  const local = ctx.localControl(requestId);
  const request = await requests.get(requestId);
  if (request === undefined) {
    // Not recorded (a run whose store keeps no requests): only a run of this process can wait for it.
    if (local === undefined) return notWaiting(requestId);
    const result = local.answer(requestId, answer);
    return result.ok ? result : { ...result, code: 'bad_input' };
  }
  const mismatch = storedAnswerMismatch(request, answer);
  if (mismatch !== undefined) return { ok: false, error: mismatch, code: 'bad_input' };
  if (request.answer !== null) return { ok: false, error: alreadyAnswered(request), code: 'conflict' };
  const waiting: Waiting = local ? { kind: 'run' } : await whereItWaits(ctx.store, request);
  if (waiting.kind === 'gone') return { ok: false, error: waiting.reason, code: 'conflict' };
  const by = answererId();
  const outcome = await requests.answer(requestId, { answer: encodeAnswer(answer), by });
  if (!outcome.ok)
    return outcome.reason === 'answered'
      ? { ok: false, error: alreadyAnswered(outcome.request), code: 'conflict' }
      : notWaiting(requestId);
  if (local) {
    // Taken here, or already by this process's AnswerWatch, which then delivered it.
    const taken = await requests.take(requestId, by);
    if (taken?.first) {
      const result = local.answer(requestId, answer);
      if (!result.ok) return { ...result, code: 'conflict' };
    }
    return { ok: true };
  }
  // The session's run has ended: its task goes back in the queue for any worker to go on with.
  if (waiting.kind === 'session') await reopenIfAnswered(ctx.store, request.sessionId);
  return { ok: true };
}

/** Whether the run that asked still waits, or its session does (the run ended with needs_input). */
async function whereItWaits(store: Store, request: StoredRequest): Promise<Waiting> {
  const run = await store.sessions.getRun(request.runId);
  if (run?.status === 'running') return { kind: 'run' };
  if (run?.status === 'needs_input') {
    const session = await store.sessions.getSession(request.sessionId);
    const waiting = session && (await waitingFor(store, session));
    if (waiting && waitingRequestId(waiting.waitingFor) === request.id) return { kind: 'session' };
  }
  return {
    kind: 'gone',
    reason: `Request ${request.id} no longer waits for an answer: its run ended${run ? ` (${run.status})` : ''} and session ${request.sessionId} went on without it.`,
  };
}

function notWaiting(requestId: string): GivenAnswerResult {
  return { ok: false, error: `No request ${requestId} is waiting for an answer.`, code: 'not_found' };
}
