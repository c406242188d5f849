import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../util/error-message.js';
import { runGoal, type ScenarioRunOptions, type ScenarioRunResult } from '../run-scenario.js';
import type { ScenarioBudget } from '../scenario.js';
import { retryGoal, taskGoal } from './goal.js';
import { scoredTasks, type WebBenchProject, type WebBenchTask } from './project.js';
import { copyStartFiles, type ProjectFolder, prepareProjectFolder } from './project-folder.js';
import { projectScript, webBenchScriptKind } from './project-script.js';
import type { TaskOutcome, WebBenchFacts } from './run-facts.js';
import { checkTasks } from './task-check.js';

/** The most characters of a failed check's output kept (per task, and as the run's reason). */
const MAX_OUTPUT_CHARS = 2_000;

/** What one run of a project needs. */
export interface ProjectRunOptions extends Omit<ScenarioRunOptions, 'scenario'> {
  project: WebBenchProject;
  /** The shared install of the project's dependencies. */
  install: string;
  /** 1: a task's check decides at once; 2: a failed check's output goes back once (Web-Bench's rule). */
  tries: 1 | 2;
  /** Only the first `tasks` tasks (all when undefined; `init` not counted). */
  tasks?: number;
  budget: ScenarioBudget;
}

/**
 * Runs one project as Web-Bench scores it, with taskweave as the agent: a fresh workspace with
 * src-init/ as src/; each task in order is a message in one session; after each, the specs of
 * tasks 1..N run; a failed check gets its output back once (with `tries` 2); a task that fails
 * its last attempt ends the project.
 */
export async function runProject(options: ProjectRunOptions): Promise<ScenarioRunResult> {
  const { project } = options;
  const env = options.env ?? process.env;
  const started = Date.now();
  const counted = scoredTasks(project.tasks).slice(0, options.tasks);
  const tasks = project.tasks.filter((task) => task.id === 'init' || counted.includes(task));
  const facts: WebBenchFacts = {
    project: project.name,
    tries: options.tries,
    tasks: counted.length,
    passedFirst: 0,
    passedSecond: 0,
    errorsFirst: 0,
    results: [],
  };
  const base = {
    model: options.model,
    scenario: project.name,
    ablation: options.ablation,
    repeat: options.repeat,
    steps: 0,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    largestRequest: 0,
    refusedFinalAnswers: 0,
    notes: 0,
    questions: 0,
  };
  let folder: ProjectFolder | undefined;
  try {
    folder = await prepareProjectFolder({
      project,
      install: options.install,
      projectConfig: options.projectConfig,
    });
    const checked = folder;
    let current = 0;
    let lastOutput = '';
    let failedFirstYet = false;
    const check = async (task: WebBenchTask, outcome: TaskOutcome): Promise<boolean> => {
      const verdict = await checkTasks({ folder: checked, index: task.index, env, signal: options.signal });
      outcome.attempts += 1;
      outcome.checkMs += verdict.durationMs;
      if (verdict.passed) {
        outcome.passedOnTry = outcome.attempts;
        delete outcome.output;
        return true;
      }
      lastOutput = verdict.output;
      outcome.output = verdict.output.slice(-MAX_OUTPUT_CHARS);
      return false;
    };
    const runOutcome = await runGoal({
      ...options,
      model: await modelFor(options, folder.root),
      workspace: folder.workspace,
      goal: taskGoal(project, tasks[0]!),
      budget: options.budget,
      next: async () => {
        const task = tasks[current]!;
        let outcome = facts.results[current];
        if (outcome === undefined) {
          outcome = { id: task.id, attempts: 0, passedOnTry: null, checkMs: 0 };
          facts.results.push(outcome);
        }
        const passedNow = await check(task, outcome);
        const isInit = task.id === 'init';
        // A failed init is replaced by the start files and not counted, as Web-Bench does.
        if (isInit && !passedNow && outcome.attempts >= options.tries)
          await copyStartFiles(project, checked.workspace);
        if (passedNow || (isInit && outcome.attempts >= options.tries)) {
          if (!isInit && outcome.passedOnTry === 1 && !failedFirstYet) facts.passedFirst += 1;
          if (!isInit) facts.passedSecond += 1;
          current += 1;
          return current < tasks.length ? taskGoal(project, tasks[current]!) : undefined;
        }
        if (isInit) return retryGoal(task, lastOutput);
        if (outcome.attempts === 1) {
          facts.errorsFirst += 1;
          failedFirstYet = true;
        }
        return outcome.attempts < options.tries ? retryGoal(task, lastOutput) : undefined;
      },
    });
    const passed =
      facts.passedSecond === counted.length &&
      runOutcome.status !== 'error' &&
      runOutcome.overBudget !== 'tokens' &&
      runOutcome.overBudget !== 'time';
    return {
      ...base,
      ...runOutcome.metrics,
      passed,
      status: runOutcome.status,
      reason: reasonOf(facts, runOutcome),
      ...(runOutcome.overBudget ? { overBudget: runOutcome.overBudget } : {}),
      wallMs: Date.now() - started,
      ...(options.keep ? { folder: folder.root } : {}),
      webBench: facts,
    };
  } catch (error) {
    return {
      ...base,
      passed: false,
      status: 'error',
      reason: `taskweave failed: ${errorMessage(error)}`,
      wallMs: Date.now() - started,
      webBench: facts,
    };
  } finally {
    if (folder && !options.keep) await folder.dispose();
  }
}

function reasonOf(facts: WebBenchFacts, outcome: Awaited<ReturnType<typeof runGoal>>): string {
  if (outcome.status === 'error') return `taskweave failed: ${outcome.failure}`;
  const parts = [
    `${facts.passedSecond}/${facts.tasks} tasks passed (${facts.passedFirst} in a row on the first attempt)`,
  ];
  const failed = facts.results.find((result) => result.passedOnTry === null && result.id !== 'init');
  if (failed !== undefined)
    parts.push(
      `${failed.id} failed after ${failed.attempts} attempt(s): ${(failed.output ?? '').slice(-MAX_OUTPUT_CHARS)}`,
    );
  if (outcome.overBudget) parts.push(`over the ${outcome.overBudget} budget`);
  if (outcome.status !== 'completed')
    parts.push(`the run ended ${outcome.status}${outcome.failure ? `: ${outcome.failure}` : ''}`);
  return parts.join(' · ');
}

/** The model name the runtime gets: the suite's script kinds become a script file beside the workspace. */
async function modelFor(options: ProjectRunOptions, root: string): Promise<string> {
  const kind = webBenchScriptKind(options.model);
  if (kind === undefined) return options.model;
  const file = path.join(root, `${kind}.json`);
  await writeFile(file, `${JSON.stringify(await projectScript(options.project, kind), null, 2)}\n`);
  return `script:${file}`;
}
