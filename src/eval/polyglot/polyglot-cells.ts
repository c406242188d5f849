import { costText, secondsText, tokensText } from '../summary-cells.js';
import type { PolyglotRow } from './polyglot-summary.js';

/**
 * The leaderboard's columns, in the shape of Aider's polyglot leaderboard: percent correct after
 * the second try (Aider's headline number), after the first, the well-formed-edit rate, total cost
 * and time; then language and tokens, which taskweave adds.
 */
export const POLYGLOT_COLUMNS = [
  { header: 'Model' },
  { header: 'Language' },
  { header: 'Percent correct (pass@2)', align: 'right' },
  { header: 'pass@1', align: 'right' },
  { header: 'Percent using correct edit format', align: 'right' },
  { header: 'Cost', align: 'right' },
  { header: 'Time', align: 'right' },
  { header: 'Tokens in/out', align: 'right' },
] as const;

/** Label of the row over every language. */
export const ALL_LANGUAGES = 'all';

/** A polyglot row as the texts of POLYGLOT_COLUMNS. */
export function polyglotCells(row: PolyglotRow): string[] {
  return [
    row.ablation === 'none' ? row.model : `${row.model} (${row.ablation})`,
    row.language ?? ALL_LANGUAGES,
    row.tries >= 2 ? percentOf(row.passedSecond, row.runs) : '— (--tries 1)',
    percentOf(row.passedFirst, row.runs),
    row.wellFormed === null ? '— (no edits)' : `${(row.wellFormed * 100).toFixed(1)}%`,
    costText(row.costUsd),
    secondsText(row.wallMs),
    `${tokensText(row.inputTokens)}/${tokensText(row.outputTokens)}`,
  ];
}

/** "50.0% (1/2)". */
function percentOf(count: number, total: number): string {
  return `${((count / total) * 100).toFixed(1)}% (${count}/${total})`;
}
