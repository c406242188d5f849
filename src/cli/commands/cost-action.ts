/** What `taskweave cost` prints: loaded when it runs. */
import { formatDollars, formatTokenCount } from '../../events/usage-text.js';
import type { StoreCliOptions } from '../options.js';
import { renderTable } from '../render/table.js';
import { styleFor } from '../render/terminal.js';
import { plural } from '../render/text-wrap.js';
import type { WorkspaceAccess } from './workspace-access.js';

export type CostOptions = StoreCliOptions & { days?: number; json?: boolean };

/** A day's or the total's tokens and cost, as `--json` prints it. */
interface UsageJson {
  runs: number;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  unpriced_runs: number;
}

/**
 * Prints the tokens and cost of the runs started in the last `days` days (local time, today
 * included), a row per day with runs, the latest first, and the total. Runs whose model has no
 * price count their tokens only: their cost is never guessed.
 */
export async function showCost(
  access: WorkspaceAccess,
  options: CostOptions & { days: number },
): Promise<void> {
  const stdout = process.stdout;
  const since = new Date();
  since.setHours(0, 0, 0, 0);
  since.setDate(since.getDate() - (options.days - 1));
  const days = await access.sessions.usageByDay(since.getTime());
  const total = days.reduce<UsageJson>(
    (sum, day) => ({
      runs: sum.runs + day.runs,
      input_tokens: sum.input_tokens + day.inputTokens,
      output_tokens: sum.output_tokens + day.outputTokens,
      cost: day.cost === null ? sum.cost : (sum.cost ?? 0) + day.cost,
      unpriced_runs: sum.unpriced_runs + day.unpricedRuns,
    }),
    { runs: 0, input_tokens: 0, output_tokens: 0, cost: null, unpriced_runs: 0 },
  );
  if (options.json) {
    const json = {
      days: days.map((day) => ({
        day: day.day,
        runs: day.runs,
        input_tokens: day.inputTokens,
        output_tokens: day.outputTokens,
        cost: day.cost,
        unpriced_runs: day.unpricedRuns,
      })),
      total,
    };
    stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const span = options.days === 1 ? 'today' : `the last ${options.days} days`;
  if (days.length === 0) {
    stdout.write(`No runs ${span === 'today' ? 'today' : `in ${span}`}.\n`);
    return;
  }
  const style = styleFor(stdout);
  const cost = (value: number | null) => (value === null ? '—' : formatDollars(value));
  const row = (label: string, usage: UsageJson) => [
    label,
    String(usage.runs),
    formatTokenCount(usage.input_tokens),
    formatTokenCount(usage.output_tokens),
    cost(usage.cost),
  ];
  stdout.write(
    renderTable({
      columns: [
        { header: 'day' },
        { header: 'runs', align: 'right' },
        { header: 'tokens in', align: 'right' },
        { header: 'tokens out', align: 'right' },
        { header: 'cost', align: 'right' },
      ],
      rows: [
        ...days.map((day) =>
          row(day.day, {
            runs: day.runs,
            input_tokens: day.inputTokens,
            output_tokens: day.outputTokens,
            cost: day.cost,
            unpriced_runs: day.unpricedRuns,
          }),
        ),
        row(`total, ${span}`, total),
      ],
      paintHeader: style.dim,
    }),
  );
  if (total.unpriced_runs > 0) {
    stdout.write(
      style.dim(
        `(${plural(total.unpriced_runs, 'run')} used a model with no price: tokens only; give it one in the config's "prices")\n`,
      ),
    );
  }
}
