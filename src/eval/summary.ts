import type { Ablation } from './ablation.js';
import type { EvalRun } from './results-file.js';

/** One line of the results: a model and ablation on one scenario, or on all of them (`scenario: null`). */
export interface SummaryRow {
  model: string;
  ablation: Ablation;
  /** null: every scenario together. */
  scenario: string | null;
  runs: number;
  passed: number;
  /** passed / runs. */
  successRate: number;
  /** Means per run. */
  steps: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Mean of each run's largest own request (input tokens). */
  largestRequest: number;
  /** Mean cost per run in US dollars; null when the model has no price. */
  costUsd: number | null;
  wallMs: number;
  refusedFinalAnswers: number;
  notes: number;
}

/**
 * Groups runs by model, ablation and scenario (in the order they first appear) and adds, for
 * each model and ablation with more than one scenario, a row over all its scenarios.
 */
export function summarize(runs: readonly EvalRun[]): SummaryRow[] {
  const groups = new Map<string, EvalRun[]>();
  const add = (key: string, run: EvalRun) => {
    const group = groups.get(key);
    if (group) group.push(run);
    else groups.set(key, [run]);
  };
  for (const run of runs) add(JSON.stringify([run.model, run.ablation, run.scenario]), run);
  const rows: SummaryRow[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    const pair = JSON.stringify([run.model, run.ablation]);
    if (seen.has(pair)) continue;
    seen.add(pair);
    const own = runs.filter((other) => other.model === run.model && other.ablation === run.ablation);
    const scenarios = [...new Set(own.map((other) => other.scenario))];
    for (const scenario of scenarios)
      rows.push(row(groups.get(JSON.stringify([run.model, run.ablation, scenario]))!, scenario));
    if (scenarios.length > 1) rows.push(row(own, null));
  }
  return rows;
}

function row(runs: EvalRun[], scenario: string | null): SummaryRow {
  const first = runs[0]!;
  const mean = (pick: (run: EvalRun) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const passed = runs.filter((run) => run.passed).length;
  const priced = runs.every((run) => run.costUsd !== null);
  return {
    model: first.model,
    ablation: first.ablation,
    scenario,
    runs: runs.length,
    passed,
    successRate: passed / runs.length,
    steps: mean((run) => run.steps),
    modelCalls: mean((run) => run.modelCalls),
    inputTokens: mean((run) => run.inputTokens),
    outputTokens: mean((run) => run.outputTokens),
    largestRequest: mean((run) => run.largestRequest ?? 0),
    costUsd: priced ? mean((run) => run.costUsd ?? 0) : null,
    wallMs: mean((run) => run.wallMs),
    refusedFinalAnswers: mean((run) => run.refusedFinalAnswers),
    notes: mean((run) => run.notes),
  };
}
