import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfigFile } from '../../runtime/configuration.js';
import { RuntimeInputError } from '../../runtime/index.js';
import { VERSION } from '../../util/version.js';
import { runMatrix } from '../eval-run.js';
import { type EvaluateOptions, type Evaluation, priceRuns } from '../evaluate.js';
import { type EvalResults, RESULTS_FORMAT } from '../results-file.js';
import type { ScenarioBudget } from '../scenario.js';
import { summarize } from '../summary.js';
import { discoverExercises, type ExerciseSelection, type PolyglotExercise } from './exercise.js';
import { polyglotScriptKind } from './exercise-script.js';
import { type PolyglotLanguage, polyglotLanguage } from './languages.js';
import { runExercise } from './run-exercise.js';
import type { SkippedExercise } from './run-facts.js';
import { toolchainStatus } from './toolchain.js';

/**
 * An exercise's limits: the agent's steps per try, tokens and wall-clock time over both tries (a
 * benchmark exercise is one file; Aider gives the model one reply per try).
 */
export const POLYGLOT_BUDGET: ScenarioBudget = { maxSteps: 30, maxTokens: 1_000_000, maxSeconds: 900 };

/** What `taskweave eval --suite polyglot` was asked to do. */
export interface PolyglotEvaluateOptions
  extends Omit<EvaluateOptions, 'scenarios' | 'scenariosDir'>,
    ExerciseSelection {
  /** The checkout of the polyglot benchmark. */
  path: string;
  tries: 1 | 2;
  budget?: ScenarioBudget;
  /** Told which exercises will not run (a missing toolchain), before the runs start. */
  onSkipped?: (skipped: SkippedExercise[]) => void;
}

/** The exercises that can run here with their languages, and those skipped with why. */
export async function planExercises(options: {
  path: string;
  selection: ExerciseSelection;
  env: NodeJS.ProcessEnv;
}): Promise<{
  runnable: { exercise: PolyglotExercise; language: PolyglotLanguage }[];
  skipped: SkippedExercise[];
}> {
  const { limit, ...filters } = options.selection;
  const exercises = await discoverExercises(options.path, filters);
  const status = new Map<string, string | PolyglotLanguage>();
  const runnable: { exercise: PolyglotExercise; language: PolyglotLanguage }[] = [];
  const skipped: SkippedExercise[] = [];
  for (const exercise of exercises) {
    if (!status.has(exercise.language)) {
      const language = polyglotLanguage(exercise.language);
      const found = language && toolchainStatus(language, options.env);
      status.set(
        exercise.language,
        language === undefined
          ? `${exercise.language}: taskweave has no test command for this language`
          : found?.available
            ? { ...language, test: found.test ?? language.test }
            : (found as { reason: string }).reason,
      );
    }
    const known = status.get(exercise.language)!;
    if (typeof known === 'string') skipped.push({ exercise: exercise.name, reason: known });
    else if (runnable.length < (limit ?? Number.POSITIVE_INFINITY))
      runnable.push({ exercise, language: known });
  }
  return { runnable, skipped };
}

/**
 * Runs the benchmark's exercises that can run here against the models under the ablations, each
 * in a fresh workspace, scored by its tests after each try; prices the runs from the config file.
 */
export async function evaluatePolyglot(options: PolyglotEvaluateOptions): Promise<Evaluation> {
  const env = options.env ?? process.env;
  const scripted = options.models.filter((model) => polyglotScriptKind(model) !== undefined);
  if (scripted.length > 0 && (options.loop === 'roa' || options.protocol === 'json'))
    throw new RuntimeInputError(
      `${scripted.join(' and ')} play the default loop and protocol only (native tool calls, react): leave out --loop roa and --protocol json.`,
    );
  const { runnable, skipped } = await planExercises({ path: options.path, selection: options, env });
  options.onSkipped?.(skipped);
  const { config } = await loadConfigFile({ cwd: options.cwd, env });
  const configFile = path.join(options.cwd, '.taskweave', 'config.json');
  const projectConfig = (await isFile(configFile)) ? configFile : undefined;
  const startedAt = new Date().toISOString();
  const units = runnable.map((entry) => ({ ...entry, name: entry.exercise.name }));
  const runs = await runMatrix({
    ...options,
    units,
    run: (job) =>
      runExercise({
        ...options,
        env,
        model: job.model,
        ablation: job.ablation,
        repeat: job.repeat,
        exercise: job.unit.exercise,
        language: job.unit.language,
        budget: options.budget ?? POLYGLOT_BUDGET,
        projectConfig,
      }),
  });
  const results: EvalResults = {
    format: RESULTS_FORMAT,
    taskweave: VERSION,
    startedAt,
    finishedAt: new Date().toISOString(),
    models: options.models,
    ablations: options.ablations,
    scenarios: units.map((unit) => unit.name),
    repeat: options.repeat,
    suite: 'polyglot',
    skipped,
    stopped: options.signal?.aborted ?? false,
    runs: priceRuns(config.prices, runs),
    summary: [],
  };
  const summary = summarize(results.runs);
  results.summary = summary;
  return { results, summary };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
