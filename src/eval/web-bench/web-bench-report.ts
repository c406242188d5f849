import { markdownTable } from '../markdown-report.js';
import type { EvalResults } from '../results-file.js';
import { WEB_BENCH_COLUMNS, webBenchCells } from './web-bench-cells.js';
import { webBenchSummary } from './web-bench-summary.js';

/** The most characters of a failure's reason shown in the report. */
const MAX_REASON_CHARS = 300;

/**
 * The Web-Bench eval's markdown report: the leaderboard table, what each column means, each
 * project's tasks, the skipped projects and the failed runs.
 */
export function webBenchReport(results: EvalResults): string {
  const skipped = results.skipped ?? [];
  const failures = results.runs.filter((run) => !run.passed);
  return [
    '# taskweave eval --suite web-bench',
    '',
    `taskweave ${results.taskweave} · ${results.startedAt} → ${results.finishedAt}${results.stopped ? ' · **stopped before every run was done**' : ''}`,
    '',
    `Models: ${results.models.map((model) => `\`${model}\``).join(', ')} · ablations: ${results.ablations.join(', ')} · ${results.scenarios.length} projects · ${results.repeat} run(s) each${skipped.length > 0 ? ` · ${skipped.length} skipped` : ''}`,
    '',
    markdownTable(WEB_BENCH_COLUMNS, webBenchSummary(results.runs).map(webBenchCells)),
    '',
    "pass@1: tasks passed on their first attempt before any failure, over the projects' tasks (Web-Bench's headline number) · pass@2: tasks passed with the retry that sees the failing output, until a task fails both · error@1: tasks whose first attempt failed · In a row: the tasks passed from the first before a failure · Time: the runs together, checks included.",
    '',
    '## Tasks',
    '',
    ...results.runs.map(
      (run) =>
        `- \`${run.model}\` · ${run.ablation} · ${run.scenario} #${run.repeat}: ${(
          run.webBench?.results ?? []
        )
          .map(
            (task) => `${task.id} ${task.passedOnTry === null ? '✗' : task.passedOnTry === 1 ? '✓' : '✓²'}`,
          )
          .join(' ')}`,
    ),
    '',
    '## Skipped',
    '',
    ...(skipped.length === 0
      ? ['None.']
      : skipped.map((entry) => `- ${entry.exercise}: ${entry.reason.replaceAll('\n', ' ')}`)),
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
