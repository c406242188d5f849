// What a session's runs spent. A run's row gets its tokens and cost when the run ends; until
// then (it goes on, or its process was killed and nothing has taken its goal up) its model calls
// are counted from their model_usage events. Plain functions over rows and events beside the one
// that reads a store, so `sessions list`'s quick path (runtime/quick-listing.ts) counts the same.

import type { ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';
import type { Run } from '../../store/rows.js';

/** The tokens and cost a run's model calls logged (its model_usage events). */
export interface LoggedUsage {
  inputTokens: number;
  outputTokens: number;
  /** US dollars; null when no call carried a cost (the model had no price). */
  cost: number | null;
}

/** One model call as its model_usage event records it. */
export interface LoggedCall {
  run_id: string;
  input_tokens: number;
  output_tokens: number;
  cost?: number;
}

/** Whether a run's row is not closed yet: its totals are still only in its events. */
export function unended(run: Pick<Run, 'status'>): boolean {
  return run.status === 'running';
}

/** The model calls among a session's events. */
export function modelCalls(events: Iterable<ServerEvent>): LoggedCall[] {
  const calls: LoggedCall[] = [];
  for (const event of events)
    if (event.type === 'agent_update' && event.update_type === 'model_usage') calls.push(event);
  return calls;
}

/** The usage of `runs` summed from their calls (calls of other runs are left out). */
export function tallyCalls(
  runs: readonly Pick<Run, 'id'>[],
  calls: Iterable<LoggedCall>,
): Map<string, LoggedUsage> {
  const usage = new Map<string, LoggedUsage>(
    runs.map((run) => [run.id, { inputTokens: 0, outputTokens: 0, cost: null }]),
  );
  for (const call of calls) {
    const total = usage.get(call.run_id);
    if (total === undefined) continue;
    total.inputTokens += call.input_tokens;
    total.outputTokens += call.output_tokens;
    if (call.cost !== undefined) total.cost = (total.cost ?? 0) + call.cost;
  }
  return usage;
}

/**
 * A session's runs (oldest first), each run whose row is not closed with the tokens and cost its
 * calls logged so far: what a summary, a detail or a list shows, so that a session's cost counts
 * every call.
 */
export function withLoggedCalls(runs: Run[], calls: Iterable<LoggedCall>): Run[] {
  const open = runs.filter(unended);
  if (open.length === 0) return runs;
  const logged = tallyCalls(open, calls);
  return runs.map((run) => {
    const usage = logged.get(run.id);
    if (usage === undefined) return run;
    return {
      ...run,
      inputTokens: Math.max(run.inputTokens, usage.inputTokens),
      outputTokens: Math.max(run.outputTokens, usage.outputTokens),
      cost: run.cost ?? usage.cost,
    };
  });
}

/** A session's runs as `withLoggedCalls` gives them, read from the store (events only when needed). */
export async function runsSpending(store: Store, sessionId: string): Promise<Run[]> {
  const runs = await store.sessions.runs(sessionId);
  if (!runs.some(unended)) return runs;
  return withLoggedCalls(runs, modelCalls(await store.sessions.events(sessionId)));
}

/**
 * What a session's runs cost in US dollars: what a new run of the session starts its budget
 * from. An ended run counts its recorded cost; a run whose row still says running (its process
 * was killed, or it goes on in another process) counts what its logged model calls cost, so
 * that no way of continuing a session starts from a fresh budget.
 */
export async function sessionSpent(store: Store, sessionId: string): Promise<number> {
  const runs = await runsSpending(store, sessionId);
  return runs.reduce((sum, run) => sum + (run.cost ?? 0), 0);
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
  return tallyCalls(runs, modelCalls(await store.sessions.events(sessionId)));
}
