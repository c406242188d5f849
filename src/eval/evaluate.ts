import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { costOf, loadConfigFile } from '../runtime/configuration.js';
import { RuntimeInputError } from '../runtime/index.js';
import { VERSION } from '../util/version.js';
import type { Ablation } from './ablation.js';
import { type EvalPlan, runEval } from './eval-run.js';
import { markdownReport } from './markdown-report.js';
import { scriptKind } from './oracle-script.js';
import { polyglotReport } from './polyglot/polyglot-report.js';
import { type EvalResults, RESULTS_FORMAT } from './results-file.js';
import type { ScenarioRunResult } from './run-scenario.js';
import { loadScenarios } from './scenario.js';
import { type SummaryRow, summarize } from './summary.js';
import { webBenchReport } from './web-bench/web-bench-report.js';

/** What `taskweave eval` was asked to do. */
export interface EvaluateOptions
  extends Pick<
    EvalPlan,
    'baseUrl' | 'protocol' | 'loop' | 'keep' | 'env' | 'signal' | 'concurrency' | 'onStart' | 'onResult'
  > {
  /** The project folder: its config file gives prices (and models) to the runs. */
  cwd: string;
  models: string[];
  /** Scenario names; all when empty. */
  scenarios: string[];
  ablations: Ablation[];
  repeat: number;
  /** Where the scenarios are (default: those shipped with taskweave). */
  scenariosDir?: string;
}

/** The results of an eval, with its summary rows. */
export interface Evaluation {
  results: EvalResults;
  summary: SummaryRow[];
}

/**
 * Runs the scenarios against the models under the ablations, each run in a fresh workspace
 * checked by its checker, and prices the runs with the config file's `prices`.
 */
export async function evaluate(options: EvaluateOptions): Promise<Evaluation> {
  const env = options.env ?? process.env;
  const scripted = options.models.filter((model) => scriptKind(model) !== undefined);
  if (scripted.length > 0 && (options.loop === 'roa' || options.protocol === 'json'))
    throw new RuntimeInputError(
      `${scripted.join(' and ')} play the default loop and protocol only (native tool calls, react): leave out --loop roa and --protocol json.`,
    );
  const scenarios = await loadScenarios({ dir: options.scenariosDir, names: options.scenarios });
  const { config } = await loadConfigFile({ cwd: options.cwd, env });
  const projectConfig = path.join(options.cwd, '.taskweave', 'config.json');
  const startedAt = new Date().toISOString();
  const runs = await runEval({
    ...options,
    env,
    scenarios,
    projectConfig: (await isFile(projectConfig)) ? projectConfig : undefined,
  });
  const results: EvalResults = {
    format: RESULTS_FORMAT,
    taskweave: VERSION,
    startedAt,
    finishedAt: new Date().toISOString(),
    models: options.models,
    ablations: options.ablations,
    scenarios: scenarios.map((scenario) => scenario.name),
    repeat: options.repeat,
    stopped: options.signal?.aborted ?? false,
    runs: priceRuns(config.prices, runs),
    summary: [],
  };
  const summary = summarize(results.runs);
  results.summary = summary;
  return { results, summary };
}

/** Writes results.json and report.md into `dir` (created); returns their paths. */
export async function writeEvaluation(
  dir: string,
  evaluation: Evaluation,
): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, 'results.json');
  const markdown = path.join(dir, 'report.md');
  await writeFile(json, `${JSON.stringify(evaluation.results, null, 2)}\n`);
  const report =
    evaluation.results.suite === 'polyglot'
      ? polyglotReport(evaluation.results)
      : evaluation.results.suite === 'web-bench'
        ? webBenchReport(evaluation.results)
        : markdownReport(evaluation.results, evaluation.summary);
  await writeFile(markdown, report);
  return { json, markdown };
}

/** The runs with their cost from the config's price table (null where a model has no price). */
export function priceRuns(
  prices: Parameters<typeof costOf>[0] | undefined,
  runs: ScenarioRunResult[],
): EvalResults['runs'] {
  return runs.map((run) => ({ ...run, costUsd: costOf(prices ?? {}, run) }));
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
