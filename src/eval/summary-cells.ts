import { formatDollars, formatTokenCount } from '../events/usage-text.js';
import type { SummaryRow } from './summary.js';

/** The columns of the results table, in order; numeric ones are right-aligned. */
export const SUMMARY_COLUMNS = [
  { header: 'model' },
  { header: 'ablation' },
  { header: 'scenario' },
  { header: 'success', align: 'right' },
  { header: 'steps', align: 'right' },
  { header: 'calls', align: 'right' },
  { header: 'in tok', align: 'right' },
  { header: 'out tok', align: 'right' },
  { header: 'max req', align: 'right' },
  { header: 'cost', align: 'right' },
  { header: 'time', align: 'right' },
  { header: 'refused', align: 'right' },
  { header: 'notes', align: 'right' },
] as const;

/** Label of the row over every scenario. */
export const ALL_SCENARIOS = 'all';

/** A summary row as the texts of SUMMARY_COLUMNS. */
export function summaryCells(row: SummaryRow): string[] {
  return [
    row.model,
    row.ablation,
    row.scenario ?? ALL_SCENARIOS,
    successText(row),
    oneDecimal(row.steps),
    oneDecimal(row.modelCalls),
    tokensText(row.inputTokens),
    tokensText(row.outputTokens),
    tokensText(row.largestRequest),
    costText(row.costUsd),
    secondsText(row.wallMs),
    oneDecimal(row.refusedFinalAnswers),
    oneDecimal(row.notes),
  ];
}

/** "2/3 67%". */
export function successText(row: { passed: number; runs: number; successRate: number }): string {
  return `${row.passed}/${row.runs} ${Math.round(row.successRate * 100)}%`;
}

/** A mean with at most one decimal ("5", "2.3"). */
export function oneDecimal(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Tokens, in thousands from 10,000 on ("950", "12.3k"). */
export function tokensText(value: number): string {
  return formatTokenCount(value);
}

/** Dollars, or "—" without a price. */
export function costText(value: number | null): string {
  return value === null ? '—' : formatDollars(value);
}

/** Seconds with one decimal. */
export function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
