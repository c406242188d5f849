import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../util/error-message.js';
import { runGoal, type ScenarioRunOptions, type ScenarioRunResult } from '../run-scenario.js';
import type { ScenarioBudget } from '../scenario.js';
import type { PolyglotExercise } from './exercise.js';
import { exerciseScript, polyglotScriptKind } from './exercise-script.js';
import { changedTestFiles, type ExerciseFolder, prepareExerciseFolder } from './exercise-workspace.js';
import { exerciseGoal, retryGoal } from './goal.js';
import type { PolyglotLanguage } from './languages.js';
import { EDIT_TOOLS, type PolyglotFacts } from './run-facts.js';
import { linkSharedInstall } from './shared-install.js';
import { runExerciseCommand } from './test-command.js';

/** The most characters of the last test output kept as a failed run's reason. */
const MAX_REASON_CHARS = 2_000;

/** What one run of an exercise needs. */
export interface ExerciseRunOptions extends Omit<ScenarioRunOptions, 'scenario'> {
  exercise: PolyglotExercise;
  language: PolyglotLanguage;
  /** 1: the tests decide after the first try; 2: a failing first try gets its test output back once. */
  tries: 1 | 2;
  budget: ScenarioBudget;
}

/**
 * Runs one exercise as Aider's benchmark does, with taskweave as the agent: a fresh workspace with
 * the stub and the tests (the install step done, with network), the goal from the instructions;
 * after the run the tests (no network); when they fail and a second try is allowed, their output
 * goes back to the model in the same session and the tests run again. A run that changes a test
 * file fails at once.
 */
export async function runExercise(options: ExerciseRunOptions): Promise<ScenarioRunResult> {
  const { exercise, language } = options;
  const env = options.env ?? process.env;
  const started = Date.now();
  const facts: PolyglotFacts = {
    language: exercise.language,
    exercise: exercise.exercise,
    tries: options.tries,
    passedOnTry: null,
    testRuns: 0,
    editCalls: 0,
    editErrors: 0,
    changedTests: [],
  };
  const base = {
    model: options.model,
    scenario: exercise.name,
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
  let folder: ExerciseFolder | undefined;
  try {
    folder = await prepareExerciseFolder({ exercise, language, projectConfig: options.projectConfig });
    const workspace = folder.workspace;
    if (language.install && (await exists(path.join(workspace, language.install.installWhen)))) {
      const install = await linkSharedInstall({ language, workspace, env, signal: options.signal });
      if (!install.passed)
        return {
          ...base,
          passed: false,
          status: 'error',
          reason: `the install step (${language.install.command}) failed: ${install.output.slice(-MAX_REASON_CHARS)}`,
          wallMs: Date.now() - started,
          polyglot: facts,
        };
    }
    let lastOutput = '';
    const runTests = async (): Promise<boolean> => {
      facts.changedTests = await changedTestFiles(folder!);
      if (facts.changedTests.length > 0) return false;
      const verdict = await runExerciseCommand({
        command: language.test,
        workspace,
        network: false,
        env,
        signal: options.signal,
      });
      facts.testRuns += 1;
      lastOutput = verdict.output;
      if (verdict.passed) facts.passedOnTry = facts.testRuns;
      return verdict.passed;
    };
    const outcome = await runGoal({
      ...options,
      model: await modelFor(options, folder.root),
      workspace,
      goal: exerciseGoal(exercise),
      budget: options.budget,
      onEvent: (event) => {
        if (event.type === 'tool_start' && EDIT_TOOLS.includes(event.name)) facts.editCalls += 1;
        if (event.type === 'tool_error' && EDIT_TOOLS.includes(event.name)) facts.editErrors += 1;
      },
      next: async () => {
        if (await runTests()) return undefined;
        if (facts.changedTests.length > 0 || facts.testRuns >= options.tries) return undefined;
        return retryGoal(exercise, lastOutput);
      },
    });
    // A run stopped by its budget never reached its tests: they say how far it got.
    if (facts.testRuns === 0 && facts.changedTests.length === 0 && outcome.status !== 'error')
      await runTests();
    const overLimit = outcome.overBudget === 'tokens' || outcome.overBudget === 'time';
    const passed = facts.passedOnTry !== null && !overLimit && outcome.status !== 'error';
    return {
      ...base,
      ...outcome.metrics,
      passed,
      status: outcome.status,
      reason: reasonOf({ facts, outcome, lastOutput, budget: options.budget }),
      ...(outcome.overBudget ? { overBudget: outcome.overBudget } : {}),
      wallMs: Date.now() - started,
      ...(options.keep ? { folder: folder.root } : {}),
      polyglot: facts,
    };
  } catch (error) {
    return {
      ...base,
      passed: false,
      status: 'error',
      reason: `taskweave failed: ${errorMessage(error)}`,
      wallMs: Date.now() - started,
      polyglot: facts,
    };
  } finally {
    if (folder && !options.keep) await folder.dispose();
  }
}

function reasonOf(options: {
  facts: PolyglotFacts;
  outcome: Awaited<ReturnType<typeof runGoal>>;
  lastOutput: string;
  budget: ScenarioBudget;
}): string {
  const { facts, outcome, lastOutput, budget } = options;
  if (outcome.status === 'error') return `taskweave failed: ${outcome.failure}`;
  const parts: string[] = [];
  if (outcome.overBudget === 'tokens') parts.push(`over the token budget (${budget.maxTokens} tokens)`);
  if (outcome.overBudget === 'time') parts.push(`over the time budget (${budget.maxSeconds} s)`);
  if (facts.changedTests.length > 0)
    parts.push(`the run changed the test file ${facts.changedTests.join(', ')}`);
  else if (facts.passedOnTry !== null) parts.push(`the tests passed on try ${facts.passedOnTry}`);
  else
    parts.push(
      `the tests failed after ${facts.testRuns} ${facts.testRuns === 1 ? 'try' : 'tries'}: ${lastOutput.slice(0, MAX_REASON_CHARS)}`,
    );
  if (outcome.status !== 'completed')
    parts.push(`the run ended ${outcome.status}${outcome.failure ? `: ${outcome.failure}` : ''}`);
  return parts.join(' · ');
}

/** The model name the runtime gets: the polyglot script kinds become a script file beside the workspace. */
async function modelFor(options: ExerciseRunOptions, root: string): Promise<string> {
  const kind = polyglotScriptKind(options.model);
  if (kind === undefined) return options.model;
  const file = path.join(root, `${kind}.json`);
  await writeFile(file, `${JSON.stringify(await exerciseScript(options.exercise, kind), null, 2)}\n`);
  return `script:${file}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
