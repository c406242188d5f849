import type { EvalResults } from './results-file.js';
import type { SummaryRow } from './summary.js';
import { SUMMARY_COLUMNS, summaryCells } from './summary-cells.js';

/** The most characters of a failure's reason shown in the report. */
const MAX_REASON_CHARS = 300;

/** A markdown table: a header row, the alignment row and the rows, cells escaped. */
export function markdownTable(
  columns: readonly { header: string; align?: 'left' | 'right' }[],
  rows: readonly string[][],
): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [
    line(columns.map((column) => column.header)),
    `|${columns.map((column) => (column.align === 'right' ? '---:' : '---')).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/** The eval's markdown report: settings, the results table, and why each failed run failed. */
export function markdownReport(results: EvalResults, summary: SummaryRow[]): string {
  const failures = results.runs.filter((run) => !run.passed);
  const lines = [
    '# taskweave eval',
    '',
    `taskweave ${results.taskweave} · ${results.startedAt} → ${results.finishedAt}${results.stopped ? ' · **stopped before every run was done**' : ''}`,
    '',
    `Models: ${results.models.map((model) => `\`${model}\``).join(', ')} · ablations: ${results.ablations.join(', ')} · ${results.scenarios.length} scenarios · ${results.repeat} run(s) each`,
    '',
    markdownTable(SUMMARY_COLUMNS, summary.map(summaryCells)),
    '',
    'success: runs whose checker passed within the budget · steps, calls (model calls), in/out tok, cost, time (wall clock), refused (premature final answers refused) and notes (recovery rules fired, failed checks, nudges): means per run.',
    '',
    '## Failed runs',
    '',
    ...(failures.length === 0
      ? ['None.']
      : failures.map(
          (run) =>
            `- \`${run.model}\` · ${run.ablation} · ${run.scenario} #${run.repeat} (${run.status}): ${run.reason.replaceAll('\n', ' ').slice(0, MAX_REASON_CHARS)}`,
        )),
    '',
  ];
  return lines.join('\n');
}
