import { markdownTable } from '../markdown-report.js';
import type { EvalResults } from '../results-file.js';
import { POLYGLOT_COLUMNS, polyglotCells } from './polyglot-cells.js';
import { polyglotSummary } from './polyglot-summary.js';

/** The most characters of a failure's reason shown in the report. */
const MAX_REASON_CHARS = 300;

/**
 * The polyglot eval's markdown report: the leaderboard table (the shape of Aider's, so the numbers
 * sit beside published ones), what each column means, the skipped exercises and the failed ones.
 */
export function polyglotReport(results: EvalResults): string {
  const failures = results.runs.filter((run) => !run.passed);
  const skipped = results.skipped ?? [];
  return [
    '# taskweave eval --suite polyglot',
    '',
    `taskweave ${results.taskweave} · ${results.startedAt} → ${results.finishedAt}${results.stopped ? ' · **stopped before every run was done**' : ''}`,
    '',
    `Models: ${results.models.map((model) => `\`${model}\``).join(', ')} · ablations: ${results.ablations.join(', ')} · ${results.scenarios.length} exercises · ${results.repeat} run(s) each${skipped.length > 0 ? ` · ${skipped.length} skipped` : ''}`,
    '',
    markdownTable(POLYGLOT_COLUMNS, polyglotSummary(results.runs).map(polyglotCells)),
    '',
    "Percent correct (pass@2): exercises whose tests passed after the first try or after the second, which sees the failing test output (Aider's headline number) · pass@1: after the first try · Percent using correct edit format: edit tool calls (edit_file, write_file) that applied without error · Cost and Time: all runs together (time includes installs and test runs) · a run that changes a test file fails.",
    '',
    '## Skipped',
    '',
    ...(skipped.length === 0 ? ['None.'] : skipped.map((entry) => `- ${entry.exercise}: ${entry.reason}`)),
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
  ].join('\n');
}
