import path from 'node:path';
import type { Ablation } from '../../eval/ablation.js';
import { COMPARISON_COLUMNS, compareResults, comparisonCells } from '../../eval/compare.js';
import { DEFAULT_RESULTS_DIR } from '../../eval/defaults.js';
import { evaluate, writeEvaluation } from '../../eval/evaluate.js';
import { scriptKind } from '../../eval/oracle-script.js';
import {
  evaluatePolyglot,
  POLYGLOT_COLUMNS,
  polyglotCells,
  polyglotScriptKind,
  polyglotSummary,
} from '../../eval/polyglot/index.js';
import { readResultsFile } from '../../eval/results-file.js';
import type { ScenarioRunResult } from '../../eval/run-scenario.js';
import { loadScenarios } from '../../eval/scenario.js';
import { SUMMARY_COLUMNS, summaryCells } from '../../eval/summary-cells.js';
import {
  evaluateWebBench,
  WEB_BENCH_COLUMNS,
  webBenchCells,
  webBenchScriptKind,
  webBenchSummary,
} from '../../eval/web-bench/index.js';
import { resolveModel } from '../../runtime/configuration.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import { scriptPathFromShell } from '../interactive/script-path.js';
import type { EvalCliOptions } from '../options.js';
import { renderTable, shortenLine } from '../render/table.js';
import { styleFor } from '../render/terminal.js';
import { UsageError } from '../usage-error.js';
import { listPolyglot, polyglotPath, skippedText } from './eval-polyglot.js';
import { listWebBench, webBenchPath } from './eval-web-bench.js';

/** The most characters of a failed run's reason on its progress line. */
const PROGRESS_REASON_CHARS = 120;

/** `taskweave eval`: runs the scenarios (or lists them, or compares two results files). */
export async function evalCommand(options: EvalCliOptions): Promise<number> {
  if (options.compare !== undefined) return compare(options);
  const benchmark = polyglotPath(options);
  const webBench = webBenchPath(options);
  if (options.list)
    return webBench !== undefined
      ? listWebBench(webBench, options)
      : benchmark === undefined
        ? list()
        : listPolyglot(benchmark, options);
  const out = process.stdout;
  // With --json, stdout carries the results only; progress goes to stderr.
  const progress = options.json ? process.stderr : process.stdout;
  const style = styleFor(progress);
  const models = await chooseModels(
    options,
    webBench !== undefined ? webBenchScriptKind : benchmark === undefined ? scriptKind : polyglotScriptKind,
  );
  const stop = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.stopped);
    progress.write(
      style.yellow('\nstopping the runs at their next step boundary — Ctrl-C again exits at once\n'),
    );
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const common = {
      cwd: options.cwd,
      models,
      ablations: options.ablation.length > 0 ? [...new Set(options.ablation)] : (['none'] as Ablation[]),
      repeat: options.repeat,
      concurrency: options.concurrency,
      baseUrl: options.baseUrl,
      protocol: options.protocol,
      loop: options.loop,
      keep: options.keep,
      signal: stop.signal,
      onResult: (run: ScenarioRunResult, done: number, total: number) => {
        const mark = run.passed ? style.green('✓') : style.red('✗');
        const what = `${run.scenario} · ${run.ablation} · ${run.model} #${run.repeat}`;
        const detail = run.passed
          ? `${run.polyglot ? `passed on try ${run.polyglot.passedOnTry}, ` : ''}${run.webBench ? `${run.webBench.passedSecond}/${run.webBench.tasks} tasks, ` : ''}${run.steps} steps, ${(run.wallMs / 1000).toFixed(1)} s`
          : shortenLine(run.reason, PROGRESS_REASON_CHARS);
        // A failed run's reason quotes the model's or a provider's text: printed stripped.
        writeTerminal(progress, `${mark} [${done}/${total}] ${what} — ${detail}\n`);
      },
    };
    const evaluation =
      webBench !== undefined
        ? await evaluateWebBench({
            ...common,
            path: webBench,
            projects: options.project,
            limit: options.limit,
            tasks: options.tasks,
            tries: options.tries,
            onInstall: (project) => progress.write(style.dim(`installing the dependencies of ${project}…\n`)),
            onSkipped: (skipped) => writeTerminal(progress, style.yellow(skippedText(skipped, 'project'))),
          })
        : benchmark === undefined
          ? await evaluate({ ...common, scenarios: options.scenario })
          : await evaluatePolyglot({
              ...common,
              path: benchmark,
              languages: options.language,
              exercises: options.exercise,
              limit: options.limit,
              tries: options.tries,
              onSkipped: (skipped) => writeTerminal(progress, style.yellow(skippedText(skipped))),
            });
    const dir = path.resolve(options.cwd, options.out ?? path.join(DEFAULT_RESULTS_DIR, stamp()));
    const files = await writeEvaluation(dir, evaluation);
    if (options.json) out.write(`${JSON.stringify(evaluation.results, null, 2)}\n`);
    else if (webBench !== undefined)
      writeTerminal(
        out,
        `\n${renderTable({ columns: WEB_BENCH_COLUMNS, rows: webBenchSummary(evaluation.results.runs).map(webBenchCells), paintHeader: style.dim })}`,
      );
    else if (benchmark !== undefined)
      writeTerminal(
        out,
        `\n${renderTable({ columns: POLYGLOT_COLUMNS, rows: polyglotSummary(evaluation.results.runs).map(polyglotCells), paintHeader: style.dim })}`,
      );
    else
      writeTerminal(
        out,
        `\n${renderTable({ columns: SUMMARY_COLUMNS, rows: evaluation.summary.map(summaryCells), paintHeader: style.dim })}`,
      );
    progress.write(`Results: ${files.json} · report: ${files.markdown}\n`);
    return evaluation.results.stopped ? EXIT.stopped : EXIT.completed;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

/**
 * The models to run, each checked before anything runs (a bad name or a missing key is exit 2):
 * `--model` (script paths relative to where the command was typed), else the model `taskweave
 * run` would use in the project.
 */
async function chooseModels(
  options: EvalCliOptions,
  builtIn: (model: string) => string | undefined,
): Promise<string[]> {
  const given = options.model.map((model) =>
    builtIn(model) ? model : (scriptPathFromShell(model) ?? model),
  );
  if (given.length === 0) {
    const resolved = await resolveModel({ cwd: options.cwd, baseUrl: options.baseUrl, env: process.env });
    return [resolved.id];
  }
  for (const model of given) {
    if (builtIn(model) === undefined)
      await resolveModel({ model, cwd: options.cwd, baseUrl: options.baseUrl, env: process.env });
  }
  return [...new Set(given)];
}

async function compare(options: EvalCliOptions): Promise<number> {
  const files = options.compare ?? [];
  if (files.length !== 2)
    throw new UsageError(`--compare takes two results files (A B), got ${files.length}.`);
  const [a, b] = await Promise.all(files.map((file) => readResultsFile(path.resolve(options.cwd, file))));
  const comparison = compareResults(a!, b!);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(comparison, null, 2)}\n`);
    return EXIT.completed;
  }
  const style = styleFor(process.stdout);
  writeTerminal(process.stdout, `${comparison.header}\n\n`);
  writeTerminal(
    process.stdout,
    renderTable({
      columns: COMPARISON_COLUMNS,
      rows: comparison.rows.map(comparisonCells),
      paintHeader: style.dim,
    }),
  );
  return EXIT.completed;
}

async function list(): Promise<number> {
  const scenarios = await loadScenarios();
  writeTerminal(
    process.stdout,
    renderTable({
      columns: [{ header: 'scenario' }, { header: 'steps', align: 'right' }, { header: 'what it asks' }],
      rows: scenarios.map((scenario) => [scenario.name, String(scenario.budget.maxSteps), scenario.title]),
    }),
  );
  return EXIT.completed;
}

/** A folder name for this moment: 2025-01-31T12-00-00. */
function stamp(): string {
  return new Date().toISOString().slice(0, 19).replaceAll(':', '-');
}
