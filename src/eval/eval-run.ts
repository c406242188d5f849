import type { Ablation } from './ablation.js';
import { DEFAULT_EVAL_CONCURRENCY } from './defaults.js';
import { runScenario, type ScenarioRunOptions, type ScenarioRunResult } from './run-scenario.js';
import type { Scenario } from './scenario.js';

/** What an eval runs: every model × ablation × scenario, `repeat` times. */
export interface EvalPlan extends Omit<ScenarioRunOptions, 'scenario' | 'model' | 'ablation' | 'repeat'> {
  models: string[];
  scenarios: Scenario[];
  ablations: Ablation[];
  repeat: number;
  /** The most runs at the same time (one model call each at a time: this bounds the request rate). */
  concurrency?: number;
  /** Called as each run ends. */
  onResult?: (result: ScenarioRunResult, done: number, total: number) => void;
  /** Called as each run starts. */
  onStart?: (run: { model: string; scenario: string; ablation: Ablation; repeat: number }) => void;
}

/** One cell of an eval's matrix: a model, an ablation, a unit (scenario or exercise) and a repetition. */
export interface MatrixJob<Unit> {
  model: string;
  ablation: Ablation;
  unit: Unit;
  repeat: number;
}

/** An eval's matrix over any kind of unit, and how one cell is run. */
export interface MatrixPlan<Unit extends { name: string }>
  extends Pick<
    EvalPlan,
    'models' | 'ablations' | 'repeat' | 'concurrency' | 'onResult' | 'onStart' | 'signal'
  > {
  units: Unit[];
  run: (job: MatrixJob<Unit>) => Promise<ScenarioRunResult>;
}

/**
 * Runs the eval's matrix with at most `concurrency` runs at once; resolves with every result in
 * matrix order (model, ablation, scenario, repetition). A stopped eval starts no further run.
 */
export async function runEval(plan: EvalPlan): Promise<ScenarioRunResult[]> {
  const { models, scenarios, ablations, repeat, concurrency, onResult, onStart, ...shared } = plan;
  return runMatrix({
    models,
    ablations,
    repeat,
    concurrency,
    onResult,
    onStart,
    signal: shared.signal,
    units: scenarios,
    run: (job) => runScenario({ ...shared, ...job, scenario: job.unit }),
  });
}

/**
 * Runs every model × ablation × unit `repeat` times with at most `concurrency` runs at once (the
 * machinery under runEval and the polyglot suite); results in matrix order.
 */
export async function runMatrix<Unit extends { name: string }>(
  plan: MatrixPlan<Unit>,
): Promise<ScenarioRunResult[]> {
  const { models, units, ablations, repeat, concurrency, onResult, onStart, signal } = plan;
  const jobs: MatrixJob<Unit>[] = [];
  for (const model of models)
    for (const ablation of ablations)
      for (const unit of units)
        for (let index = 1; index <= repeat; index += 1) jobs.push({ model, ablation, unit, repeat: index });
  const results: ScenarioRunResult[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length && !signal?.aborted) {
      const index = next;
      next += 1;
      const job = jobs[index]!;
      onStart?.({ model: job.model, scenario: job.unit.name, ablation: job.ablation, repeat: job.repeat });
      results[index] = await plan.run(job);
      done += 1;
      onResult?.(results[index]!, done, jobs.length);
    }
  };
  const workers = Math.max(1, Math.min(concurrency ?? DEFAULT_EVAL_CONCURRENCY, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results.filter((result) => result !== undefined);
}
