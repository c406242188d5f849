/** Tokens and money of a group of runs. */
export interface UsageTotal {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars of the runs whose model had a price; null when none had one. */
  cost: number | null;
  /** Runs that used tokens with a model that had no price (their cost is not in `cost`). */
  unpricedRuns: number;
}

/** The usage of one day (local time, `YYYY-MM-DD`). */
export interface DayUsage extends UsageTotal {
  day: string;
}

/** Tokens and cost of runs per queue task and per day. */
export interface UsageLog {
  /** The runs of each of these queue tasks (goals), added up; a task with no run is left out. */
  byTask(taskIds: string[]): Promise<Map<string, UsageTotal>>;
  /** The runs started since `since` (ms), added up per local day, the latest day first. */
  byDay(since: number): Promise<DayUsage[]>;
}

/** A count as a driver returns an aggregate: a number, or a numeric string (PostgreSQL's bigint and numeric). */
type Counted = number | string;

/** A usage total from the sums a query returned, whichever way its driver spells numbers. */
export function usageTotalOf(row: {
  runs: Counted;
  inputTokens: Counted;
  outputTokens: Counted;
  cost: Counted | null;
  unpricedRuns: Counted | null;
}): UsageTotal {
  return {
    runs: Number(row.runs),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    cost: row.cost === null ? null : Number(row.cost),
    unpricedRuns: Number(row.unpricedRuns ?? 0),
  };
}
