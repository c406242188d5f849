import { and, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { type DayUsage, type UsageLog, type UsageTotal, usageTotalOf } from '../usage-log.js';
import type { PgContext } from './context.js';
import { runs } from './schema.js';

/** Tokens and cost of runs, per queue task or per day, with the contracts of the SQLite UsageStore. */
export class PgUsageStore implements UsageLog {
  constructor(private readonly ctx: PgContext) {}

  async byTask(taskIds: string[]): Promise<Map<string, UsageTotal>> {
    if (taskIds.length === 0) return new Map();
    const rows = await this.ctx.db
      .select({
        taskId: runs.taskId,
        runs: sql<string>`count(*)`,
        inputTokens: sql<string>`coalesce(sum(${runs.inputTokens}), 0)`,
        outputTokens: sql<string>`coalesce(sum(${runs.outputTokens}), 0)`,
        cost: sql<string | null>`sum(${runs.cost})`,
        unpricedRuns: sql<string>`sum(case when ${runs.cost} is null and ${runs.inputTokens} + ${runs.outputTokens} > 0 then 1 else 0 end)`,
      })
      .from(runs)
      .where(and(isNotNull(runs.taskId), inArray(runs.taskId, taskIds)))
      .groupBy(runs.taskId);
    return new Map(rows.map(({ taskId, ...total }) => [taskId ?? '', usageTotalOf(total)]));
  }

  /**
   * Added up per day of this process's local time, as the SQLite store's `localtime` does: the
   * server's time zone may be another machine's, so the days are counted here.
   */
  async byDay(since: number): Promise<DayUsage[]> {
    const rows = await this.ctx.db
      .select({
        startedAt: runs.startedAt,
        inputTokens: runs.inputTokens,
        outputTokens: runs.outputTokens,
        cost: runs.cost,
      })
      .from(runs)
      .where(gte(runs.startedAt, since));
    const days = new Map<string, DayUsage>();
    for (const run of rows) {
      const day = localDay(run.startedAt);
      const total = days.get(day) ?? {
        day,
        runs: 0,
        inputTokens: 0,
        outputTokens: 0,
        cost: null,
        unpricedRuns: 0,
      };
      total.runs += 1;
      total.inputTokens += run.inputTokens;
      total.outputTokens += run.outputTokens;
      if (run.cost !== null) total.cost = (total.cost ?? 0) + run.cost;
      else if (run.inputTokens + run.outputTokens > 0) total.unpricedRuns += 1;
      days.set(day, total);
    }
    return [...days.values()].sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  }
}

/** `YYYY-MM-DD` of a time in milliseconds, in local time. */
function localDay(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
