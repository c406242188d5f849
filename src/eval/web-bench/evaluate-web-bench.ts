import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfigFile } from '../../runtime/configuration.js';
import { RuntimeInputError } from '../../runtime/index.js';
import { VERSION } from '../../util/version.js';
import { runMatrix } from '../eval-run.js';
import { type EvaluateOptions, type Evaluation, priceRuns } from '../evaluate.js';
import type { SkippedExercise } from '../polyglot/index.js';
import { type EvalResults, RESULTS_FORMAT } from '../results-file.js';
import type { ScenarioBudget } from '../scenario.js';
import { summarize } from '../summary.js';
import { installFolder, sharedInstall, workspaceLibraries } from './install.js';
import { discoverProjects, type ProjectSelection, type WebBenchProject } from './project.js';
import { webBenchScriptKind } from './project-script.js';
import { runProject } from './run-project.js';
import { setupProblem } from './setup-check.js';

/** The most characters of a failed install's output kept as the reason a project was skipped. */
const MAX_INSTALL_REASON_CHARS = 600;

/**
 * A project's limits: steps per message (a task or its retry), tokens and wall-clock time over
 * the whole project (about 20 tasks, their checks included).
 */
export const WEB_BENCH_BUDGET: ScenarioBudget = { maxSteps: 60, maxTokens: 20_000_000, maxSeconds: 4 * 3600 };

/** What `taskweave eval --suite web-bench` was asked to do. */
export interface WebBenchEvaluateOptions
  extends Omit<EvaluateOptions, 'scenarios' | 'scenariosDir'>,
    ProjectSelection {
  /** The checkout of Web-Bench. */
  path: string;
  tries: 1 | 2;
  /** Only the first n tasks of each project. */
  tasks?: number;
  budget?: ScenarioBudget;
  /** Told which projects will not run, and why (a set-up that cannot work here), before the runs start. */
  onSkipped?: (skipped: SkippedExercise[]) => void;
  /** Told as each dependency set starts installing. */
  onInstall?: (project: string) => void;
}

/** The selected projects that can be set up here, and those that cannot with why (nothing installed yet). */
export async function planProjects(options: {
  path: string;
  selection: ProjectSelection;
  env: NodeJS.ProcessEnv;
}): Promise<{ runnable: WebBenchProject[]; skipped: SkippedExercise[] }> {
  const { limit, ...filters } = options.selection;
  const projects = await discoverProjects(options.path, filters);
  const runnable: WebBenchProject[] = [];
  const skipped: SkippedExercise[] = [];
  for (const project of projects) {
    const problem = await setupProblem({ project, env: options.env });
    if (problem !== undefined) skipped.push({ exercise: project.name, reason: problem });
    else if (runnable.length < (limit ?? Number.POSITIVE_INFINITY)) runnable.push(project);
  }
  return { runnable, skipped };
}

/**
 * Runs the checkout's projects that can run here against the models under the ablations: the
 * dependencies installed first (once per set; a project whose install fails is skipped, not
 * failed), then each project in a fresh workspace, task after task; prices the runs.
 */
export async function evaluateWebBench(options: WebBenchEvaluateOptions): Promise<Evaluation> {
  const env = options.env ?? process.env;
  const scripted = options.models.filter((model) => webBenchScriptKind(model) !== undefined);
  if (scripted.length > 0 && (options.loop === 'roa' || options.protocol === 'json'))
    throw new RuntimeInputError(
      `${scripted.join(' and ')} play the default loop and protocol only (native tool calls, react): leave out --loop roa and --protocol json.`,
    );
  const startedAt = new Date().toISOString();
  const planned = await planProjects({ path: options.path, selection: options, env });
  const skipped = [...planned.skipped];
  const libraries = await workspaceLibraries(options.path);
  const units: { name: string; project: WebBenchProject; install: string }[] = [];
  for (const project of planned.runnable) {
    if (options.signal?.aborted) break;
    const place = await installFolder({ project, libraries, env });
    if ('missing' in place) {
      skipped.push({
        exercise: project.name,
        reason: `${place.missing} is not in the checkout's libraries/`,
      });
      continue;
    }
    options.onInstall?.(project.name);
    const verdict = await sharedInstall({ ...place, libraries, env, signal: options.signal });
    if (verdict.passed) units.push({ name: project.name, project, install: place.folder });
    else
      skipped.push({
        exercise: project.name,
        reason: `the install failed: ${verdict.output.slice(-MAX_INSTALL_REASON_CHARS)}`,
      });
  }
  options.onSkipped?.(skipped);
  const { config } = await loadConfigFile({ cwd: options.cwd, env });
  const configFile = path.join(options.cwd, '.taskweave', 'config.json');
  const projectConfig = (await isFile(configFile)) ? configFile : undefined;
  const runs = await runMatrix({
    ...options,
    units,
    run: (job) =>
      runProject({
        ...options,
        env,
        model: job.model,
        ablation: job.ablation,
        repeat: job.repeat,
        project: job.unit.project,
        install: job.unit.install,
        budget: options.budget ?? WEB_BENCH_BUDGET,
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
    suite: 'web-bench',
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
