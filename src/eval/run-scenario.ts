import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunStatus, ServerEvent } from '../events/registry.js';
import { type RequestPolicy, Runtime } from '../runtime/index.js';
import { errorMessage } from '../util/error-message.js';
import { type Ablation, ablationSettings } from './ablation.js';
import { runChecker } from './checker.js';
import { loadOracle } from './oracle.js';
import { oracleScript, scriptKind } from './oracle-script.js';
import type { PolyglotFacts } from './polyglot/run-facts.js';
import { MetricsCounter, type RunMetrics } from './run-metrics.js';
import type { Scenario, ScenarioBudget } from './scenario.js';
import type { WebBenchFacts } from './web-bench/run-facts.js';
import { prepareRunFolder } from './workspace.js';

/** A run's wall-clock limit when its scenario sets none. */
export const DEFAULT_RUN_SECONDS = 15 * 60;

/** What one run of a scenario needs. */
export interface ScenarioRunOptions {
  scenario: Scenario;
  /** `provider:model`, or `script:oracle` / `script:stop-early` (built from the scenario's oracle). */
  model: string;
  baseUrl?: string;
  ablation: Ablation;
  /** Which repetition this is (1-based). */
  repeat: number;
  protocol?: 'native' | 'json';
  loop?: 'react' | 'roa';
  /** The project's `.taskweave/config.json`, copied into the workspace. */
  projectConfig?: string;
  /** Keep the run's folder (its path is in the result). */
  keep?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Aborted when the whole eval is stopped. */
  signal?: AbortSignal;
}

/** How one run went: the checker's verdict, how the run ended and what it spent. */
export interface ScenarioRunResult extends RunMetrics {
  model: string;
  scenario: string;
  ablation: Ablation;
  repeat: number;
  /** The checker passed and the run stayed within its budget. */
  passed: boolean;
  /** How the agent's run ended (`error`: taskweave itself failed). */
  status: RunStatus | 'error';
  /** Why it failed, or what the checker confirmed. */
  reason: string;
  /** The budget the run went over, if any. */
  overBudget?: 'steps' | 'tokens' | 'time';
  wallMs: number;
  /** The run's folder, when kept. */
  folder?: string;
  /** What a polyglot exercise's run adds (tries, edits, test files). */
  polyglot?: PolyglotFacts;
  /** What a Web-Bench project's run adds (its tasks, pass@1, pass@2). */
  webBench?: WebBenchFacts;
}

/**
 * Runs one scenario once: a fresh workspace from its start files, the agent over the runtime
 * with the ablation's settings and the scenario's budget, non-interactively (plans approved,
 * questions answered by the scenario or by nobody, a failed task aborts), then the checker.
 */
export async function runScenario(options: ScenarioRunOptions): Promise<ScenarioRunResult> {
  const { scenario, ablation } = options;
  const folder = await prepareRunFolder({ scenario, projectConfig: options.projectConfig });
  const started = Date.now();
  try {
    const model = await modelFor(options, folder.root);
    const outcome = await runGoal({
      ...options,
      model,
      workspace: folder.workspace,
      goal: scenario.goal,
      budget: scenario.budget,
      answer: scenario.input?.answer,
    });
    const wallMs = Date.now() - started;
    const check = await runChecker(scenario, folder.workspace);
    const { status, failure, overBudget, metrics } = outcome;
    const ended = status === 'completed' ? '' : `the run ended ${status}${failure ? `: ${failure}` : ''}`;
    const budgetText =
      overBudget && budgetReason(overBudget, scenario, metrics.inputTokens + metrics.outputTokens);
    return {
      model: options.model,
      scenario: scenario.name,
      ablation,
      repeat: options.repeat,
      ...metrics,
      passed: check.passed && overBudget === undefined && status !== 'error',
      status,
      reason:
        status === 'error'
          ? `taskweave failed: ${failure}`
          : [budgetText, check.reason, ended].filter(Boolean).join(' · '),
      ...(overBudget ? { overBudget } : {}),
      wallMs,
      ...(options.keep ? { folder: folder.root } : {}),
    };
  } finally {
    if (!options.keep) await folder.dispose();
  }
}

/** How the agent's run of a goal ended, and what it spent. */
export interface GoalOutcome {
  status: ScenarioRunResult['status'];
  /** Why the run failed (or what went wrong in taskweave). */
  failure?: string;
  overBudget?: ScenarioRunResult['overBudget'];
  metrics: RunMetrics;
}

/** What one agent run of a goal needs: the eval's run options, the workspace, the goal and its limits. */
export interface GoalRunOptions extends Omit<ScenarioRunOptions, 'scenario' | 'repeat'> {
  workspace: string;
  goal: string;
  budget: ScenarioBudget;
  /** The answer given when the agent asks (request_input); without it nobody answers. */
  answer?: string;
  /**
   * Called when a submission's run has ended by itself (not stopped, not an error): a text it
   * returns is submitted next in the same session (the conversation goes on), undefined ends.
   */
  next?: (ended: { status: RunStatus }) => Promise<string | undefined>;
  /** Every event of the run, as it comes. */
  onEvent?: (event: ServerEvent) => void;
}

/**
 * Runs a goal in the workspace over a runtime of its own, answering its question with the given
 * answer and stopping it (at the next step boundary) when it goes over its token or time budget
 * or the eval is stopped; `next` may continue the session with further messages.
 */
export async function runGoal(options: GoalRunOptions): Promise<GoalOutcome> {
  const { budget, answer } = options;
  const policy: RequestPolicy = {
    input: answer !== undefined ? 'ask' : 'nobody',
    plan: 'approve',
    failure: 'abort',
  };
  const runtime = await Runtime.open({
    cwd: options.workspace,
    model: options.model,
    baseUrl: options.baseUrl,
    maxSteps: budget.maxSteps,
    ...ablationSettings(options.ablation),
    onFailure: 'abort',
    protocol: options.protocol ?? 'native',
    loop: options.loop,
    // Nobody is there to approve: every call runs, commands inside the sandbox (network off).
    approval: 'auto',
    sandbox: 'workspace-write',
    policy,
    env: options.env,
  });
  const counter = new MetricsCounter();
  let overBudget: GoalOutcome['overBudget'];
  let stopped = false;
  const stop = (limit?: GoalOutcome['overBudget']) => {
    overBudget ??= limit;
    stopped = true;
    runtime.stop();
  };
  const timer = setTimeout(() => stop('time'), (budget.maxSeconds ?? DEFAULT_RUN_SECONDS) * 1000);
  const onAbort = () => stop();
  options.signal?.addEventListener('abort', onAbort);
  runtime.bus.subscribe((event) => {
    counter.add(event);
    options.onEvent?.(event);
    if (counter.tokens > budget.maxTokens) stop('tokens');
    if (event.type === 'agent_update' && event.update_type === 'agent_request_input' && answer !== undefined)
      queueMicrotask(() => void runtime.answer(event.request_id, { kind: 'input', content: answer }));
  });
  try {
    if (options.signal?.aborted) stop();
    let text: string | undefined = options.goal;
    let sessionId: string | undefined;
    let status: RunStatus;
    let failure: string | undefined;
    do {
      const submission = await runtime.submit(text, sessionId === undefined ? {} : { sessionId });
      if (submission.kind !== 'started') throw new Error('the fresh workspace already had a task running');
      sessionId = submission.sessionId;
      const { result } = await submission.done;
      status = result.status;
      failure = result.status === 'failed' ? result.reason : undefined;
      text = stopped || options.next === undefined ? undefined : await options.next({ status });
    } while (text !== undefined && !stopped);
    if (status === 'max_steps') overBudget ??= 'steps';
    return {
      status,
      ...(failure !== undefined ? { failure } : {}),
      overBudget,
      metrics: counter.metrics,
    };
  } catch (error) {
    return { status: 'error', failure: errorMessage(error), overBudget, metrics: counter.metrics };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await runtime.close();
  }
}

function budgetReason(
  budget: NonNullable<ScenarioRunResult['overBudget']>,
  scenario: Scenario,
  tokens: number,
) {
  const { maxSteps, maxTokens, maxSeconds } = scenario.budget;
  switch (budget) {
    case 'steps':
      return `over the step budget (${maxSteps} steps)`;
    case 'tokens':
      return `over the token budget (${tokens} > ${maxTokens} tokens)`;
    case 'time':
      return `over the time budget (${maxSeconds ?? DEFAULT_RUN_SECONDS} s)`;
  }
}

/** The model name the runtime gets: eval's script kinds become a script file beside the workspace. */
async function modelFor(options: ScenarioRunOptions, root: string): Promise<string> {
  const kind = scriptKind(options.model);
  if (kind === undefined) return options.model;
  const script = oracleScript({
    oracle: await loadOracle(options.scenario),
    ablation: options.ablation,
    kind,
  });
  const file = path.join(root, `${kind}.json`);
  await writeFile(file, `${JSON.stringify(script, null, 2)}\n`);
  return `script:${file}`;
}
