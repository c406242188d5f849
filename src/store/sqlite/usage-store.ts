import { and, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { runs } from './schema.js';

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

/** Tokens and cost of runs, added up per queue task or per day, from the runs table. */
export class UsageStore {
  private readonly orm: StoreDrizzle;

  constructor(db: TaskweaveDb) {
    this.orm = db.drizzle;
  }

  /** The runs of each of these queue tasks (goals), added up; a task with no run is left out. */
  byTask(taskIds: string[]): Map<string, UsageTotal> {
    if (taskIds.length === 0) return new Map();
    const rows = this.orm
      .select({ taskId: runs.taskId, ...TOTALS })
      .from(runs)
      .where(and(isNotNull(runs.taskId), inArray(runs.taskId, taskIds)))
      .groupBy(runs.taskId)
      .all();
    return new Map(rows.map(({ taskId, ...total }) => [taskId ?? '', totalOf(total)]));
  }

  /** The runs started since `since` (ms), added up per local day, the latest day first. */
  byDay(since: number): DayUsage[] {
    const day = sql<string>`date(${runs.startedAt} / 1000, 'unixepoch', 'localtime')`;
    return this.orm
      .select({ day, ...TOTALS })
      .from(runs)
      .where(gte(runs.startedAt, since))
      .groupBy(day)
      .orderBy(sql`1 desc`)
      .all()
      .map(({ day, ...total }) => ({ day, ...totalOf(total) }));
  }
}

const TOTALS = {
  runs: sql<number>`count(*)`,
  inputTokens: sql<number>`coalesce(sum(${runs.inputTokens}), 0)`,
  outputTokens: sql<number>`coalesce(sum(${runs.outputTokens}), 0)`,
  cost: sql<number | null>`sum(${runs.cost})`,
  unpricedRuns: sql<number>`sum(case when ${runs.cost} is null and ${runs.inputTokens} + ${runs.outputTokens} > 0 then 1 else 0 end)`,
};

function totalOf(row: {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
  unpricedRuns: number;
}): UsageTotal {
  return {
    runs: Number(row.runs),
    inputTokens: Number(row.inputTokens),
    outputTokens: Number(row.outputTokens),
    cost: row.cost === null ? null : Number(row.cost),
    unpricedRuns: Number(row.unpricedRuns ?? 0),
  };
}
