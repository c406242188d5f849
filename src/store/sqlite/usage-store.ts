import { and, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { SyncPort } from '../ports.js';
import { type DayUsage, type UsageLog, type UsageTotal, usageTotalOf } from '../usage-log.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { runs } from './schema.js';

export type { DayUsage, UsageTotal };

/** Tokens and cost of runs, added up per queue task or per day, from the runs table. */
export class UsageStore implements SyncPort<UsageLog> {
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
    return new Map(rows.map(({ taskId, ...total }) => [taskId ?? '', usageTotalOf(total)]));
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
      .map(({ day, ...total }) => ({ day, ...usageTotalOf(total) }));
  }
}

const TOTALS = {
  runs: sql<number>`count(*)`,
  inputTokens: sql<number>`coalesce(sum(${runs.inputTokens}), 0)`,
  outputTokens: sql<number>`coalesce(sum(${runs.outputTokens}), 0)`,
  cost: sql<number | null>`sum(${runs.cost})`,
  unpricedRuns: sql<number>`sum(case when ${runs.cost} is null and ${runs.inputTokens} + ${runs.outputTokens} > 0 then 1 else 0 end)`,
};
