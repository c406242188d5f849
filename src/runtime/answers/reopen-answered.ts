import type { Store } from '../../store/ports.js';
import { TaskStoreError } from '../../store/store-errors.js';
import { waitingFor, waitingRequestId } from './waiting-session.js';

/**
 * Puts a session's blocked goal task back in the queue when what the session waits for has an
 * answer in the store (given on any server or terminal), so that a worker claims it and goes on
 * with the answer. Called by whoever stores the answer, and by the worker right after it blocked
 * the task (an answer stored while its run was ending finds no blocked task to reopen): of the
 * two, whichever comes second sees both the answer and the block. Reopening only a blocked task
 * leaves one claimed meanwhile to its worker. Resolves with whether this call reopened it.
 */
export async function reopenIfAnswered(store: Store, sessionId: string): Promise<boolean> {
  const session = await store.sessions.getSession(sessionId);
  const waiting = session && (await waitingFor(store, session));
  if (!waiting?.goalTask) return false;
  const request = await store.requests.get(waitingRequestId(waiting.waitingFor));
  if (request?.answer == null) return false;
  try {
    await store.tasks.reopen(waiting.goalTask.id);
    return true;
  } catch (error) {
    if (error instanceof TaskStoreError) return false;
    throw error;
  }
}
