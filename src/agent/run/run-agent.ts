import type { ModelMessage, UserContent } from 'ai';
import type { ImageRecord } from '../../events/images.js';
import type { RunStatus } from '../../events/registry.js';
import { formatDollars } from '../../events/usage-text.js';
import type { TokenUsage } from '../../model/call-model.js';
import type { ResolvedModel } from '../../model/types.js';
import { DEFAULT_PLAN_CONCURRENCY } from '../../plan/scheduler.js';
import { systemPrompts } from '../../prompts/system-prompt.js';
import type { CompletedTask } from '../../prompts/task-prompt.js';
import type { Store } from '../../store/ports.js';
import type { RunMode } from '../../store/vocabulary.js';
import type { BackgroundCommands } from '../../tools/background/index.js';
import { FileTracker } from '../../tools/file-tracker.js';
import type { LanguageServers } from '../../tools/lsp/index.js';
import { coreTools, ToolRegistry } from '../../tools/registry.js';
import type { Tool } from '../../tools/types.js';
import type { Workspace } from '../../tools/workspace/index.js';
import { ChangeRecorder } from '../../work/change-recorder.js';
import { pushCheckoutGoal } from '../../work/checkout-goal.js';
import type { IsolationSettings } from '../../work/isolation.js';
import { ApprovalGate } from '../approval/approval-gate.js';
import type { RunSafety } from '../approval/run-safety.js';
import { RunHooks } from '../hooks/run-hooks.js';
import { runStepLoop } from '../loop/driver.js';
import type { LoopOutcome } from '../loop/step.js';
import { landAtEnd } from '../orchestrator/goal-isolation.js';
import { finalAnswer, revisePlan, runPlan } from '../orchestrator/orchestrator.js';
import { planActionsTool } from '../orchestrator/plan-tool.js';
import type { StoredPlan } from '../orchestrator/stored-plan.js';
import { type ProtocolName, wireProtocol } from '../protocol/wire-protocol.js';
import type { RunControl } from '../state/control.js';
import { DEFAULT_MAX_STEPS } from '../state/defaults.js';
import { imageMarker, imagePart, withoutImages } from '../state/image-parts.js';
import type { Journal } from '../state/journal.js';
import { DEFAULT_LOOP, type LoopName } from '../state/loop-name.js';
import { PathLocks } from '../state/path-locks.js';
import { planEventTasks, RunRecords } from '../state/run-records.js';
import type { Conversation, RunContext } from '../state/run-state.js';
import { DEFAULT_TASK_TRACKING, type TaskTracking } from '../state/task-tracking.js';
import { delegateTool } from '../subagents/delegate-tool.js';
import type { SubagentSettings } from '../subagents/subagent.js';
import { todoTools } from '../todo/todo-tools.js';
import { decideRequestStep } from './decide-request.js';

export { DEFAULT_MAX_STEPS } from '../state/defaults.js';

/** Whether the model may, must or must not plan: `--plan auto|always|never`. */
export type PlanMode = 'auto' | 'always' | 'never';

export interface RunAgentOptions {
  goal: string;
  model: ResolvedModel;
  workspace: Workspace;
  /** Where every state change and event of the run is written, then announced. */
  journal: Journal;
  /** The store the run records itself in (sessions, messages, plans, tasks). */
  store: Store;
  control: RunControl;
  /** When calls are asked and how commands are confined. */
  safety: RunSafety;
  maxSteps?: number;
  /** The tools offered (default: the core tools); the to-do and plan tools come beside them. */
  tools?: Tool[];
  /** A plain chat turn: no tool at all, not the to-do or plan tools either. */
  chatOnly?: boolean;
  /** Earlier messages of the conversation (when a session is continued). */
  history?: ModelMessage[];
  /** Images that go with the goal (their bytes are loaded from the store by hash). */
  images?: readonly ImageRecord[];
  /**
   * Set when `goal` is taskweave's own message continuing a run a process left unfinished: that
   * run's goal, which this run is recorded, announced (agent_start `continued`) and planned under.
   */
  continuesGoal?: string;
  plan?: PlanMode;
  concurrency?: number;
  /** What a failed task leads to when no one can be asked. */
  onFailure?: 'abort' | 'skip';
  /** How the model calls tools (default native). */
  protocol?: ProtocolName;
  /** How the work loops produce their steps: `react` (default) or `roa` (reason → act → observe). */
  loop?: LoopName;
  /** The queue task of this request, when it came through the queue (the to-do tools leave it alone). */
  ownTaskId?: string;
  /** Who tracks an approved plan's tasks (default: the orchestrator). */
  taskTracking?: TaskTracking;
  /** The session's spending limit and what its earlier runs cost (US dollars); none when left out. */
  budget?: { limit: number; spentBefore: number };
  /** The session's background commands; without them run_command cannot start one. */
  background?: BackgroundCommands;
  /** The run's language servers (closed by whoever made them); no diagnostics or navigation without. */
  languageServers?: LanguageServers;
  /** Where plan tasks work: git worktrees or the shared workspace (shared when left out). */
  isolation?: IsolationSettings;
  /** The agents the `delegate` tool may start, and how deep; no delegate tool when left out. */
  subagents?: SubagentSettings;
}

/** How a run ended. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  /** The run failed because the model's provider refused to answer (finish reason content-filter). */
  refused?: boolean;
  steps: number;
  usage: TokenUsage;
  /** What the run cost in US dollars; null when its model has no price. */
  cost: number | null;
  /** The top-level conversation, history included, for continuing the session later. */
  messages: ModelMessage[];
}

/**
 * Runs one goal to its end. Simple mode is the tool-first loop; when the model plans (or must),
 * the orchestrator takes over and runs the approved plan task by task.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const planMode = options.plan ?? 'auto';
  const goal = options.continuesGoal ?? options.goal;
  const run = await createRun(options, goal, planMode === 'always' ? 'complex' : 'simple');
  const todo = todoTools({
    tasks: options.store.tasks,
    sessionId: options.journal.sessionId,
    ownTaskId: options.ownTaskId,
  });
  // No tools given (a plain chat turn): none at all, not the to-do or plan tools either.
  const chatOnly = options.chatOnly === true;
  // delegate is the top-level loop's: a plan task already works in a fresh context of its own.
  const subagents = chatOnly || run.tools.length === 0 ? undefined : options.subagents;
  run.registry = new ToolRegistry([
    ...run.tools,
    ...(subagents === undefined || subagents.agents.length === 0 ? [] : [delegateTool(run, subagents)]),
    ...(chatOnly ? [] : todo),
    ...(planMode === 'never' || chatOnly ? [] : [planActionsTool(run)]),
  ]);
  // A model that does not see images gets the earlier ones as markers (new ones are refused before the run).
  const history =
    options.model.vision === false ? withoutImages(options.history ?? []).messages : (options.history ?? []);
  const conversation: Conversation = {
    system: run.systemPrompt(planMode === 'never' ? 'simple' : 'planning'),
    messages: [...history, await goalMessage(options)],
    saved: history.length,
    goal: options.goal,
  };
  let mode: RunMode = 'simple';
  const outcome = await failedWhenStoreFails(run, async () => {
    await run.records.saveMessages(run.runId, conversation);
    const first = await runStepLoop({
      run,
      conversation,
      phase: planMode === 'always' ? 'plan' : 'act',
      firstToolChoice: planMode === 'always' ? { type: 'tool', toolName: 'plan_actions' } : undefined,
      decide: (step) => decideRequestStep(step, { run, conversation, planRequired: planMode === 'always' }),
    });
    if (first.kind !== 'plan') return first;
    mode = 'complex';
    return orchestrate(run, goal, first);
  });
  return finish(run, conversation.messages, outcome, mode);
}

/**
 * The run's work, or a failed outcome when it threw because the store failed under it (a write
 * the run waited for: its database file deleted by another shell, the disk full). The run then
 * still ends with its final status and the reason, instead of an exception and no end.
 */
async function failedWhenStoreFails(run: RunContext, work: () => Promise<LoopOutcome>): Promise<LoopOutcome> {
  try {
    return await work();
  } catch (error) {
    const storeFailure = run.records.journal.failure;
    if (storeFailure === undefined) throw error;
    return { kind: 'interruption', status: 'failed', reason: storeFailure.message };
  }
}

/**
 * Continues a plan that an earlier process left unfinished: completed tasks stay completed and
 * are not run again, the interrupted task continues its saved conversation, pending tasks run.
 */
export async function resumePlan(
  options: Omit<RunAgentOptions, 'goal' | 'history' | 'plan'>,
  plan: StoredPlan,
): Promise<RunResult> {
  const run = await createRun(options, plan.goal, 'complex');
  run.records.adoptPlan(plan.planId, plan.taskIds);
  run.emit({
    type: 'agent_update',
    update_type: 'plan_resumed',
    plan_id: plan.planId,
    tasks: planEventTasks(plan.graph),
    completed: plan.completed.map((task) => task.id),
  });
  const outcome = await failedWhenStoreFails(run, () =>
    orchestrate(run, plan.goal, { kind: 'plan', planId: plan.planId, graph: plan.graph }, plan),
  );
  return finish(run, [], outcome, 'complex');
}

async function createRun(
  options: Omit<RunAgentOptions, 'history' | 'plan' | 'goal'>,
  goal: string,
  mode: 'simple' | 'complex',
): Promise<RunContext> {
  const records = new RunRecords(options.store, options.journal);
  const runId = await records.startRun(goal, mode, options.ownTaskId);
  const journal = options.journal;
  const { safety } = options;
  const offered = options.tools ?? coreTools;
  // plan-only: the model is not offered what it may not use (the gate refuses it too).
  const tools =
    safety.approval.mode === 'plan-only' ? offered.filter((tool) => tool.changes === 'none') : offered;
  const run: RunContext = {
    runId,
    model: options.model,
    tools,
    registry: new ToolRegistry([...tools]),
    workspace: options.workspace,
    systemPrompt: systemPrompts({ workspace: options.workspace.root }),
    files: new FileTracker(),
    control: options.control,
    approval: new ApprovalGate({
      settings: safety.approval,
      remembered: safety.remembered,
      sandboxMissing: safety.sandboxMissing,
      networkOff: safety.sandbox.kind === 'bwrap' && !safety.sandbox.network,
      control: options.control,
    }),
    sandbox: safety.sandbox,
    ...(safety.web === undefined ? {} : { web: safety.web }),
    hooks: new RunHooks({
      config: safety.hooks,
      workspaceRoot: options.workspace.root,
      runId,
      sessionId: journal.sessionId,
      emit: (payload) => journal.emit(runId, payload),
    }),
    background: options.background,
    ...(options.languageServers === undefined ? {} : { languageServers: options.languageServers }),
    emit: (payload) => {
      journal.emit(runId, payload);
    },
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    pathLocks: new PathLocks(),
    changes: new ChangeRecorder({
      root: options.workspace.root,
      sessionId: journal.sessionId,
      runId,
      store: options.store.changes,
      onError: (content) =>
        run.emit({ type: 'agent_update', update_type: 'agent_note', step: run.steps, content }),
    }),
    planOptions: {
      concurrency: options.concurrency ?? DEFAULT_PLAN_CONCURRENCY,
      onFailure: options.onFailure ?? 'abort',
    },
    isolation: options.isolation,
    protocol: wireProtocol(options.protocol ?? 'native'),
    loop: options.loop ?? DEFAULT_LOOP,
    taskTracking: options.taskTracking ?? DEFAULT_TASK_TRACKING,
    records,
    finalAnswerRefusals: 0,
    steps: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    cost: 0,
    ...(options.budget ? { budget: { ...options.budget } } : {}),
  };
  run.control.attach({
    emit: run.emit,
    step: () => run.steps,
    // The run does not wait for these hooks: the request is out either way.
    waiting: (request) => {
      if (!run.hooks.has('waitingForInput')) return;
      void run.hooks.at('waitingForInput', request, { step: run.steps, taskId: request.task_id });
    },
  });
  run.emit({
    type: 'agent_update',
    update_type: 'agent_start',
    max_steps: run.maxSteps,
    mode,
    loop: run.loop,
    model: options.model.id,
    goal,
    ...(options.continuesGoal !== undefined ? { continued: true } : {}),
    approval: safety.approval.mode,
    sandbox: safety.sandboxLabel,
    network: safety.sandbox.kind === 'bwrap' ? safety.sandbox.network : undefined,
    isolation: options.isolation?.mode,
    ...('images' in options && options.images?.length ? { images: [...options.images] } : {}),
  });
  for (const content of [...(safety.notes ?? []), ...budgetNotes(run)]) {
    run.emit({ type: 'agent_update', update_type: 'agent_note', step: 0, content });
  }
  if (run.hooks.has('runStart')) await run.hooks.at('runStart', { goal, mode }, { step: 0 });
  return run;
}

/** The user's message of a goal: its text, and its images loaded from the store. */
async function goalMessage(options: RunAgentOptions): Promise<ModelMessage> {
  const images = options.images ?? [];
  if (images.length === 0) return { role: 'user', content: options.goal };
  const parts: UserContent = [{ type: 'text', text: options.goal }];
  for (const record of images) {
    const stored = options.model.vision === false ? undefined : await options.store.images.get(record.hash);
    const why =
      options.model.vision === false
        ? `not sent: ${options.model.id} does not see images`
        : 'no longer stored';
    parts.push(
      stored === undefined
        ? { type: 'text', text: imageMarker(record, why) }
        : imagePart(record, stored.bytes),
    );
  }
  return { role: 'user', content: parts };
}

/** Why a budget cannot be held: its model has no price to count what is spent. */
function budgetNotes(run: RunContext): string[] {
  if (run.budget === undefined || run.model.price !== undefined) return [];
  return [
    `The budget of ${formatDollars(run.budget.limit)} is not applied: ${run.model.id} has no price (give it one in the config's "prices").`,
  ];
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
  let continues: string | undefined;
  while (outcome.kind === 'plan') {
    const result = await runPlan(run, {
      goal,
      planId: outcome.planId,
      graph: outcome.graph,
      completed,
      initialState,
      continues,
    });
    initialState = undefined;
    if (result.kind === 'done') {
      const answer = await finalAnswer(run, goal, completed);
      if (answer.kind === 'final' && result.goal) await landAtEnd(run, result.goal);
      return answer;
    }
    if (result.kind === 'revise') {
      continues = result.plan.worktrees?.goalId;
      outcome = await revisePlan(run, goal, result.plan, result.result);
    } else return result;
  }
  return outcome;
}

/**
 * Under `--repo`: what a completed goal left in the clone's checkout (no plan, or plan tasks
 * that shared it) goes to its goal branch on the remote; a push that fails fails the goal (its
 * files stay in the checkout for the next worker's look).
 */
async function pushCheckoutWork(run: RunContext, result: RunResult): Promise<RunResult> {
  const remote = run.isolation?.remote;
  if (remote === undefined) return result;
  try {
    const pushed = await pushCheckoutGoal({ workspaceRoot: run.workspace.root, goalId: run.runId, remote });
    if (pushed)
      run.emit({
        type: 'agent_update',
        update_type: 'agent_note',
        step: run.steps,
        content: `The goal's work is on ${pushed.branch} (${pushed.commit.slice(0, 7)}), pushed to the remote.`,
      });
    return result;
  } catch (error) {
    return {
      ...result,
      status: 'failed',
      finalAnswer: undefined,
      reason: `The goal's work could not be pushed to the remote: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

async function finish(
  run: RunContext,
  messages: ModelMessage[],
  outcome: LoopOutcome,
  mode: 'simple' | 'complex',
): Promise<RunResult> {
  const cost = run.model.price === undefined ? null : run.cost;
  const base = { runId: run.runId, steps: run.steps, usage: run.usage, cost, messages };
  let result: RunResult =
    outcome.kind === 'final'
      ? { ...base, status: 'completed', finalAnswer: outcome.answer }
      : outcome.kind === 'interruption'
        ? {
            ...base,
            status: outcome.status,
            reason: outcome.reason,
            ...(outcome.refused ? { refused: true } : {}),
          }
        : { ...base, status: 'failed', reason: `The loop ended unexpectedly (${outcome.kind}).` };
  await run.changes.close();
  if (outcome.kind === 'final') result = await pushCheckoutWork(run, result);
  await run.records.journal.settled();
  const storeFailure = run.records.journal.failure;
  // Work the store did not keep is not reported as done: nobody could find it again.
  if (storeFailure) result = { ...base, status: 'failed', reason: storeFailure.message };
  try {
    await run.records.finishRun(run.runId, {
      status: result.status,
      finalAnswer: result.finalAnswer,
      reason: result.reason,
      ...(result.refused ? { refused: true } : {}),
      steps: result.steps,
      inputTokens: run.usage.inputTokens,
      outputTokens: run.usage.outputTokens,
      cost,
      mode,
    });
  } catch (error) {
    // Its end was announced as failed (see finishRun): the result says the same.
    result = { ...base, status: 'failed', reason: run.records.journal.failure?.message ?? String(error) };
  }
  if (run.hooks.has('runEnd')) {
    const { status, finalAnswer: answer, reason, steps } = result;
    await run.hooks.at(
      'runEnd',
      {
        status,
        steps,
        ...(answer !== undefined ? { final_answer: answer } : {}),
        ...(reason ? { reason } : {}),
      },
      { step: run.steps },
    );
  }
  return result;
}
