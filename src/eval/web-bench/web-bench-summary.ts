import type { Ablation } from '../ablation.js';
import type { EvalRun } from '../results-file.js';

/** One line of a Web-Bench result: a model and ablation over every project, or over one. */
export interface WebBenchRow {
  model: string;
  ablation: Ablation;
  /** null: every project together. */
  project: string | null;
  /** Project runs (projects × repeats). */
  runs: number;
  /** Tasks of those runs. */
  tasks: number;
  /** pass_tasks@1: tasks passed on the first attempt before any failure (tasks passed in a row). */
  passedFirst: number;
  /** pass_tasks@2: tasks passed, retries included. */
  passedSecond: number;
  /** errors@1: tasks whose first attempt failed. */
  errorsFirst: number;
  /** The most attempts per task the runs were allowed (1: pass@2 was not measured). */
  tries: number;
  inputTokens: number;
  outputTokens: number;
  /** Cost of the runs together in US dollars; null when a model has no price. */
  costUsd: number | null;
  /** Wall-clock time of the runs together (checks included). */
  wallMs: number;
}

/**
 * The Web-Bench rows of an eval's runs: for each model and ablation (in the order they first
 * appear) a row over every project, then one per project (sorted). Runs without Web-Bench facts
 * are left out.
 */
export function webBenchSummary(runs: readonly EvalRun[]): WebBenchRow[] {
  const rows: WebBenchRow[] = [];
  const own = runs.filter((run) => run.webBench !== undefined);
  const pairs = [...new Map(own.map((run) => [`${run.model}\u0000${run.ablation}`, run])).values()];
  for (const { model, ablation } of pairs) {
    const mine = own.filter((run) => run.model === model && run.ablation === ablation);
    rows.push(row(mine, null));
    for (const project of [...new Set(mine.map((run) => run.webBench!.project))].sort())
      rows.push(
        row(
          mine.filter((run) => run.webBench!.project === project),
          project,
        ),
      );
  }
  return rows;
}

function row(runs: EvalRun[], project: string | null): WebBenchRow {
  const first = runs[0]!;
  const sum = (pick: (run: EvalRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    model: first.model,
    ablation: first.ablation,
    project,
    runs: runs.length,
    tasks: sum((run) => run.webBench!.tasks),
    passedFirst: sum((run) => run.webBench!.passedFirst),
    passedSecond: sum((run) => run.webBench!.passedSecond),
    errorsFirst: sum((run) => run.webBench!.errorsFirst),
    tries: Math.max(...runs.map((run) => run.webBench!.tries)),
    inputTokens: sum((run) => run.inputTokens),
    outputTokens: sum((run) => run.outputTokens),
    costUsd: runs.every((run) => run.costUsd !== null) ? sum((run) => run.costUsd ?? 0) : null,
    wallMs: sum((run) => run.wallMs),
  };
}
