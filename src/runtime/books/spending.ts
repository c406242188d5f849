import type { Store } from '../../store/ports.js';
import type { Run } from '../../store/rows.js';

/** The tokens and cost a run's model calls logged (its model_usage events). */
export interface LoggedUsage {
  inputTokens: number;
  outputTokens: number;
  /** US dollars; null when no call carried a cost (the model had no price). */
  cost: number | null;
}

/**
 * What a session's runs cost in US dollars: what a new run of the session starts its budget
 * from. An ended run counts its recorded cost; a run whose row still says running (its process
 * was killed, or it goes on in another process) counts what its logged model calls cost, so
 * that no way of continuing a session starts from a fresh budget.
 */
export async function sessionSpent(store: Store, sessionId: string): Promise<number> {
  const runs = await store.sessions.runs(sessionId);
  const ended = runs.reduce((sum, run) => sum + (run.status === 'running' ? 0 : (run.cost ?? 0)), 0);
  const unended = runs.filter((run) => run.status === 'running');
  if (unended.length === 0) return ended;
  const logged = await loggedUsage(store, sessionId, unended);
  return [...logged.values()].reduce((sum, usage) => sum + (usage.cost ?? 0), ended);
}

/**
 * The usage `runs` of a session logged call by call: the record of runs that never reached
 * their end (a run's row gets its totals only when it ends).
 */
export async function loggedUsage(
  store: Store,
  sessionId: string,
  runs: readonly Pick<Run, 'id'>[],
): Promise<Map<string, LoggedUsage>> {
  const usage = new Map<string, LoggedUsage>(
    runs.map((run) => [run.id, { inputTokens: 0, outputTokens: 0, cost: null }]),
  );
  for (const event of await store.sessions.events(sessionId)) {
    if (event.type !== 'agent_update' || event.update_type !== 'model_usage') continue;
    const total = usage.get(event.run_id);
    if (total === undefined) continue;
    total.inputTokens += event.input_tokens;
    total.outputTokens += event.output_tokens;
    if (event.cost !== undefined) total.cost = (total.cost ?? 0) + event.cost;
  }
  return usage;
}
