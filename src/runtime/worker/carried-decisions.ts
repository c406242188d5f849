import type { RunControl } from '../../agent/index.js';
import type { Store } from '../../store/ports.js';
import { decodeAnswer } from '../answers/stored-answer.js';

/**
 * Failure decisions given (on any server, through the store) to a run whose process was killed
 * before it took them: the run that goes on with the session gets each for the same plan task,
 * so that a decision given while no worker was alive to take it is not lost. Only the
 * interrupted runs' untaken answers: one a worker took was applied by it. Taken here, once.
 */
export async function carryFailureDecisions(
  store: Store,
  sessionId: string,
  control: RunControl,
  taker: string,
): Promise<void> {
  const interrupted = new Set(
    (await store.sessions.runs(sessionId)).filter((run) => run.status === 'running').map((run) => run.id),
  );
  if (interrupted.size === 0) return;
  for (const request of await store.requests.list(sessionId)) {
    if (request.kind !== 'failure' || request.taskId === null || !interrupted.has(request.runId)) continue;
    const answer = decodeAnswer(request.answer);
    if (answer?.kind !== 'failure' || request.takenBy !== null) continue;
    if ((await store.requests.take(request.id, taker))?.first) control.decideAhead(request.taskId, answer);
  }
}
