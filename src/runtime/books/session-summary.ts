// A session as a list shows it: plain functions over rows, loaded by `sessions list` without the
// store (see src/cli/quick-listing.ts).

import type { Run, Session } from '../../store/rows.js';

/** A session in a list: with how many runs it had and how the last one ended. */
export interface SessionSummary {
  session: Session;
  runCount: number;
  /** The last run's status (`running` while one goes on), or the session's when it has none. */
  status: string;
  inputTokens: number;
  outputTokens: number;
  /** US dollars of its runs whose model had a price; null when none had one. */
  cost: number | null;
}

/** A session's summary from its runs (oldest first). */
export function summarize(session: Session, runs: Run[]): SessionSummary {
  return {
    session,
    runCount: runs.length,
    status: runs.at(-1)?.status ?? session.status,
    inputTokens: runs.reduce((sum, run) => sum + run.inputTokens, 0),
    outputTokens: runs.reduce((sum, run) => sum + run.outputTokens, 0),
    cost: runs.some((run) => run.cost !== null) ? runs.reduce((sum, run) => sum + (run.cost ?? 0), 0) : null,
  };
}

/**
 * Whether a list shows the session: not when it is an editor's session never prompted (no goal,
 * no run). It is still there for a `session/load` by its id.
 */
export function listed(summary: SessionSummary): boolean {
  return summary.runCount > 0 || summary.session.goal !== '';
}
