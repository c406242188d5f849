import type { Ablation } from '../ablation.js';
import type { EvalRun } from '../results-file.js';

/** One line of a polyglot result: a model and ablation over every exercise, or over one language's. */
export interface PolyglotRow {
  model: string;
  ablation: Ablation;
  /** null: every language together. */
  language: string | null;
  /** Runs (exercises × repeats). */
  runs: number;
  /** Runs whose tests passed after the first try. */
  passedFirst: number;
  /** Runs whose tests passed after the first or the second try. */
  passedSecond: number;
  /** The most tries the runs were allowed (1: pass@2 was not measured). */
  tries: number;
  /** Share of edit tool calls that applied without error; null when no edit was tried. */
  wellFormed: number | null;
  editCalls: number;
  /** Cost of every run together in US dollars; null when a model has no price. */
  costUsd: number | null;
  /** Wall-clock time of every run together. */
  wallMs: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The polyglot rows of an eval's runs: for each model and ablation (in the order they first
 * appear) a row over every exercise, then one per language (sorted). Runs without polyglot facts
 * are left out.
 */
export function polyglotSummary(runs: readonly EvalRun[]): PolyglotRow[] {
  const rows: PolyglotRow[] = [];
  const polyglotRuns = runs.filter((run) => run.polyglot !== undefined);
  const pairs = [...new Map(polyglotRuns.map((run) => [`${run.model}\u0000${run.ablation}`, run])).values()];
  for (const { model, ablation } of pairs) {
    const own = polyglotRuns.filter((run) => run.model === model && run.ablation === ablation);
    rows.push(row(own, null));
    const languages = [...new Set(own.map((run) => run.polyglot!.language))].sort();
    for (const language of languages)
      rows.push(
        row(
          own.filter((run) => run.polyglot!.language === language),
          language,
        ),
      );
  }
  return rows;
}

function row(runs: EvalRun[], language: string | null): PolyglotRow {
  const first = runs[0]!;
  const sum = (pick: (run: EvalRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const editCalls = sum((run) => run.polyglot!.editCalls);
  const editErrors = sum((run) => run.polyglot!.editErrors);
  return {
    model: first.model,
    ablation: first.ablation,
    language,
    runs: runs.length,
    passedFirst: runs.filter((run) => run.passed && run.polyglot!.passedOnTry === 1).length,
    passedSecond: runs.filter((run) => run.passed).length,
    tries: Math.max(...runs.map((run) => run.polyglot!.tries)),
    wellFormed: editCalls === 0 ? null : (editCalls - editErrors) / editCalls,
    editCalls,
    costUsd: runs.every((run) => run.costUsd !== null) ? sum((run) => run.costUsd ?? 0) : null,
    wallMs: sum((run) => run.wallMs),
    inputTokens: sum((run) => run.inputTokens),
    outputTokens: sum((run) => run.outputTokens),
  };
}
