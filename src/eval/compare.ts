import type { EvalResults } from './results-file.js';
import { type SummaryRow, summarize } from './summary.js';
import {
  ALL_SCENARIOS,
  costText,
  oneDecimal,
  secondsText,
  successText,
  tokensText,
} from './summary-cells.js';

/** One line of a comparison: the same key in results A and B (either may be missing). */
export interface ComparisonRow {
  /** What is compared: `model · ablation · scenario`, or only the scenario when each file holds one model and ablation. */
  label: string;
  a?: SummaryRow;
  b?: SummaryRow;
  /** B's success rate minus A's, in percentage points; undefined when one side is missing. */
  successDelta?: number;
}

/** The columns of a comparison table. */
export const COMPARISON_COLUMNS = [
  { header: 'compared' },
  { header: 'success A', align: 'right' },
  { header: 'success B', align: 'right' },
  { header: 'Δ', align: 'right' },
  { header: 'steps A→B', align: 'right' },
  { header: 'tokens A→B', align: 'right' },
  { header: 'cost A→B', align: 'right' },
  { header: 'time A→B', align: 'right' },
  { header: 'refused A→B', align: 'right' },
] as const;

/**
 * Compares two eval results, row by row of their summaries (recomputed from their runs). When
 * each holds a single model and ablation, rows are matched by scenario (A and B may then be two
 * models, or one model with and without a mechanism); otherwise by model, ablation and scenario.
 */
export function compareResults(a: EvalResults, b: EvalResults): { header: string; rows: ComparisonRow[] } {
  const rowsA = summarize(a.runs);
  const rowsB = summarize(b.runs);
  const single = groups(rowsA) === 1 && groups(rowsB) === 1;
  const keyOf = (row: SummaryRow) =>
    single
      ? (row.scenario ?? ALL_SCENARIOS)
      : `${row.model} · ${row.ablation} · ${row.scenario ?? ALL_SCENARIOS}`;
  const rows = new Map<string, ComparisonRow>();
  for (const row of rowsA) rows.set(keyOf(row), { label: keyOf(row), a: row });
  for (const row of rowsB) {
    const existing = rows.get(keyOf(row));
    if (existing) existing.b = row;
    else rows.set(keyOf(row), { label: keyOf(row), b: row });
  }
  for (const row of rows.values()) {
    if (row.a && row.b) row.successDelta = Math.round((row.b.successRate - row.a.successRate) * 100);
  }
  const describe = (rowsOf: SummaryRow[]) =>
    [...new Set(rowsOf.map((row) => `${row.model} · ${row.ablation}`))].join(', ');
  return { header: `A: ${describe(rowsA)} · B: ${describe(rowsB)}`, rows: [...rows.values()] };
}

/** A comparison row as the texts of COMPARISON_COLUMNS. */
export function comparisonCells(row: ComparisonRow): string[] {
  const pair = (pick: (side: SummaryRow) => string) =>
    `${row.a ? pick(row.a) : '—'} → ${row.b ? pick(row.b) : '—'}`;
  const delta = row.successDelta;
  return [
    row.label,
    row.a ? successText(row.a) : '—',
    row.b ? successText(row.b) : '—',
    delta === undefined ? '—' : `${delta > 0 ? '+' : ''}${delta} pt`,
    pair((side) => oneDecimal(side.steps)),
    pair((side) => tokensText(side.inputTokens + side.outputTokens)),
    pair((side) => costText(side.costUsd)),
    pair((side) => secondsText(side.wallMs)),
    pair((side) => oneDecimal(side.refusedFinalAnswers)),
  ];
}

function groups(rows: SummaryRow[]): number {
  return new Set(rows.map((row) => `${row.model}\u0000${row.ablation}`)).size;
}
