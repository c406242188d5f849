import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { EventBus } from '../events/bus.js';
import type { RunStatus } from '../events/registry.js';
import type { TokenUsage } from '../model/call-model.js';
import type { ResolvedModel } from '../model/types.js';
import { DEFAULT_PLAN_CONCURRENCY } from '../plan/scheduler.js';
import type { TaskGraph, TaskState } from '../plan/task-graph.js';
import { buildSystemPrompt } from '../prompts/system-prompt.js';
import type { CompletedTask } from '../prompts/task-prompt.js';
import { FileTracker } from '../tools/file-tracker.js';
import { coreTools, ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { Workspace } from '../tools/workspace.js';
import type { RunControl } from './control.js';
import { decideRequestStep } from './decide-request.js';
import { runStepLoop } from './loop/driver.js';
import { DEFAULT_LOOP, type LoopName } from './loop/loop-name.js';
import type { LoopOutcome } from './loop/step.js';
import { finalAnswer, revisePlan, runPlan } from './orchestrator.js';
import { PathLocks } from './path-locks.js';
import { planActionsTool } from './plan-tool.js';
import { RunRecords, type RunStores } from './run-records.js';
import type { Conversation, RunContext } from './run-state.js';
import { todoTools } from './todo-tools.js';
import { type ProtocolName, wireProtocol } from './wire-protocol.js';

/** The step budget of a run when none is given. */
export const DEFAULT_MAX_STEPS = 50;

/** Whether the model may, must or must not plan: `--plan auto|always|never`. */
export type PlanMode = 'auto' | 'always' | 'never';

export interface RunAgentOptions {
  goal: string;
  model: ResolvedModel;
  workspace: Workspace;
  bus: EventBus;
  control: RunControl;
  maxSteps?: number;
  tools?: Tool[];
  runId?: string;
  /** Earlier messages of the conversation (when a session is continued). */
  history?: ModelMessage[];
  plan?: PlanMode;
  concurrency?: number;
  /** What a failed task leads to when no one can be asked. */
  onFailure?: 'abort' | 'skip';
  /** How the model calls tools (default native). */
  protocol?: ProtocolName;
  /** How the work loops produce their steps: `react` (default) or `roa` (reason → act → observe). */
  loop?: LoopName;
  /** Where the run is recorded (sessions, messages, plans, tasks); nothing is stored without it. */
  stores?: RunStores;
  /** The queue task of this request, when it came through the queue (the to-do tools leave it alone). */
  ownTaskId?: string;
}

/** How a run ended. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  steps: number;
  usage: TokenUsage;
  /** The top-level conversation, history included, for continuing the session later. */
  messages: ModelMessage[];
}

/**
 * Runs one goal to its end. Simple mode is the tool-first loop; when the model plans (or must),
 * the orchestrator takes over and runs the approved plan task by task.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const planMode = options.plan ?? 'auto';
  const run = createRun(options, options.goal, planMode === 'always' ? 'complex' : 'simple');
  const todo = options.stores
    ? todoTools({
        tasks: options.stores.tasks,
        sessionId: options.stores.sessionId,
        ownTaskId: options.ownTaskId,
      })
    : [];
  run.registry = new ToolRegistry([
    ...run.tools,
    ...todo,
    ...(planMode === 'never' ? [] : [planActionsTool(run)]),
  ]);
  const history = options.history ?? [];
  const conversation: Conversation = {
    system: buildSystemPrompt({
      workspace: options.workspace.root,
      tools: run.registry.list(),
      mode: planMode === 'never' ? 'simple' : 'planning',
    }),
    messages: [...history, { role: 'user', content: options.goal }],
    saved: history.length,
  };
  run.records?.saveMessages(run.runId, conversation);
  const first = await runStepLoop({
    run,
    conversation,
    phase: planMode === 'always' ? 'plan' : 'act',
    firstToolChoice: planMode === 'always' ? { type: 'tool', toolName: 'plan_actions' } : undefined,
    decide: (step) => decideRequestStep(step, { run, conversation, planRequired: planMode === 'always' }),
  });
  const outcome = first.kind === 'plan' ? await orchestrate(run, options.goal, first) : first;
  return finish(run, conversation.messages, outcome, first.kind === 'plan' ? 'complex' : 'simple');
}

/** A plan read back from the store to continue it. */
export interface StoredPlan {
  planId: string;
  goal: string;
  graph: TaskGraph;
  states: Map<string, TaskState>;
  completed: CompletedTask[];
  /** The plan's task keys → the store's task ids. */
  taskIds: Map<string, string>;
}

/**
 * Continues a plan that an earlier process left unfinished: completed tasks stay completed and
 * are not run again, the interrupted task continues its saved conversation, pending tasks run.
 */
export async function resumePlan(
  options: Omit<RunAgentOptions, 'goal' | 'history' | 'plan'>,
  plan: StoredPlan,
): Promise<RunResult> {
  const run = createRun(options, plan.goal, 'complex');
  run.records?.adoptPlan(plan.planId, plan.taskIds);
  run.emit({
    type: 'agent_update',
    update_type: 'plan_resumed',
    plan_id: plan.planId,
    tasks: plan.graph.tasks.map(({ id, title, description, depends_on }) => ({
      id,
      title,
      description,
      depends_on,
    })),
    completed: plan.completed.map((task) => task.id),
  });
  const outcome = await orchestrate(
    run,
    plan.goal,
    { kind: 'plan', planId: plan.planId, graph: plan.graph },
    plan,
  );
  return finish(run, [], outcome, 'complex');
}

function createRun(
  options: Omit<RunAgentOptions, 'history' | 'plan' | 'goal'>,
  goal: string,
  mode: 'simple' | 'complex',
): RunContext {
  const records = options.stores ? new RunRecords(options.stores) : undefined;
  const runId = records?.startRun(goal, mode) ?? options.runId ?? randomUUID();
  const tools = options.tools ?? coreTools;
  const run: RunContext = {
    runId,
    model: options.model,
    tools,
    registry: new ToolRegistry([...tools]),
    workspace: options.workspace,
    files: new FileTracker(),
    control: options.control,
    emit: (payload) => options.bus.emit(runId, payload),
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    pathLocks: new PathLocks(),
    planOptions: {
      concurrency: options.concurrency ?? DEFAULT_PLAN_CONCURRENCY,
      onFailure: options.onFailure ?? 'abort',
    },
    protocol: wireProtocol(options.protocol ?? 'native'),
    loop: options.loop ?? DEFAULT_LOOP,
    records,
    finalAnswerRefusals: 0,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
  };
  observeQuestions(run);
  run.emit({
    type: 'agent_update',
    update_type: 'agent_start',
    max_steps: run.maxSteps,
    mode,
    loop: run.loop,
    model: options.model.id,
    goal,
  });
  return run;
}

/** Runs approved plans (and their revisions) until the run has its final outcome. */
async function orchestrate(
  run: RunContext,
  goal: string,
  first: Extract<LoopOutcome, { kind: 'plan' }>,
  resumed?: StoredPlan,
): Promise<LoopOutcome> {
  const completed: CompletedTask[] = resumed ? [...resumed.completed] : [];
  let initialState = resumed?.states;
  let outcome: LoopOutcome = first;
  while (outcome.kind === 'plan') {
    const result = await runPlan(run, {
      goal,
      planId: outcome.planId,
      graph: outcome.graph,
      completed,
      initialState,
    });
    initialState = undefined;
    if (result.kind === 'done') return finalAnswer(run, goal, completed);
    if (result.kind === 'revise') outcome = await revisePlan(run, goal, result.plan, result.result);
    else return result;
  }
  return outcome;
}

function finish(
  run: RunContext,
  messages: ModelMessage[],
  outcome: LoopOutcome,
  mode: 'simple' | 'complex',
): RunResult {
  const base = { runId: run.runId, steps: run.steps, usage: run.usage, messages };
  const result: RunResult =
    outcome.kind === 'final'
      ? { ...base, status: 'completed', finalAnswer: outcome.answer }
      : outcome.kind === 'interruption'
        ? { ...base, status: outcome.status, reason: outcome.reason }
        : { ...base, status: 'failed', reason: `The loop ended unexpectedly (${outcome.kind}).` };
  run.records?.finishRun(run.runId, {
    status: result.status,
    finalAnswer: result.finalAnswer,
    steps: result.steps,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    mode,
  });
  run.emit({
    type: 'agent_update',
    update_type: 'agent_completion',
    steps: result.steps,
    status: result.status,
    final_answer: result.finalAnswer,
    reason: result.reason,
    input_tokens: run.usage.inputTokens,
    output_tokens: run.usage.outputTokens,
  });
  run.emit({ type: 'response_complete', status: result.status, final_answer: result.finalAnswer });
  return result;
}

function observeQuestions(run: RunContext): void {
  run.control.observer = {
    asked: (request) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_request_input',
        step: run.steps,
        request_id: request.requestId,
        question: request.question,
      }),
    answered: (request, content) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_user_input',
        request_id: request.requestId,
        content,
      }),
    timedOut: (request) =>
      run.emit({
        type: 'agent_update',
        update_type: 'agent_request_input_timeout',
        request_id: request.requestId,
      }),
  };
}
