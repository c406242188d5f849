import { costText, secondsText, tokensText } from '../summary-cells.js';
import type { WebBenchRow } from './web-bench-summary.js';

/**
 * The leaderboard's columns, in the shape of Web-Bench's (pass@1 per project and over all, pass@2,
 * error@1), with the tasks passed in a row; then tokens, cost and time, which taskweave adds.
 */
export const WEB_BENCH_COLUMNS = [
  { header: 'Model' },
  { header: 'Project' },
  { header: 'pass@1', align: 'right' },
  { header: 'pass@2', align: 'right' },
  { header: 'error@1', align: 'right' },
  { header: 'In a row', align: 'right' },
  { header: 'Tokens in/out', align: 'right' },
  { header: 'Cost', align: 'right' },
  { header: 'Time', align: 'right' },
] as const;

/** Label of the row over every project. */
export const ALL_PROJECTS = 'all';

/** A Web-Bench row as the texts of WEB_BENCH_COLUMNS. */
export function webBenchCells(row: WebBenchRow): string[] {
  return [
    row.ablation === 'none' ? row.model : `${row.model} (${row.ablation})`,
    row.project ?? ALL_PROJECTS,
    percentOf(row.passedFirst, row.tasks),
    row.tries >= 2 ? percentOf(row.passedSecond, row.tasks) : '— (--tries 1)',
    percentOf(row.errorsFirst, row.tasks),
    row.runs === 1
      ? `${row.passedFirst}/${row.tasks}`
      : `${(row.passedFirst / row.runs).toFixed(1)} per project`,
    `${tokensText(row.inputTokens)}/${tokensText(row.outputTokens)}`,
    costText(row.costUsd),
    secondsText(row.wallMs),
  ];
}

/** "25.0% (5/20)". */
function percentOf(count: number, total: number): string {
  return total === 0 ? '—' : `${((count / total) * 100).toFixed(1)}% (${count}/${total})`;
}
