import type { Store } from '../../store/ports.js';

/**
 * What a session's finished runs cost in US dollars (the runs whose model had a price): what a
 * new run of the session starts its budget from.
 */
export async function sessionSpent(store: Store, sessionId: string): Promise<number> {
  const runs = await store.sessions.runs(sessionId);
  return runs.reduce((sum, run) => sum + (run.cost ?? 0), 0);
}
