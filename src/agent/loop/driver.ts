import type { Tool as SdkTool, ToolChoice } from 'ai';
import type { ModelPhase } from '../../model/types.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/index.js';
import type { LoopName } from '../state/loop-name.js';
import { addNote } from '../state/notes.js';
import type { Conversation, RunContext } from '../state/run-state.js';
import { compactIfNeeded } from './compact-conversation.js';
import { type LoopContext, queueConversationSave } from './loop-context.js';
import { reactStrategy } from './react.js';
import { RecoveryTracker } from './recovery.js';
import { roaStrategy } from './roa.js';
import { runStep } from './run-step.js';
import type { LoopOutcome, NextStep, Step } from './step.js';
import { checkStopPredicates } from './stop-predicates.js';
import type { LoopStrategy } from './strategy.js';

/** What one loop works on and how its steps are judged. */
export interface StepLoopOptions {
  run: RunContext;
  conversation: Conversation;
  /** The strategy that produces the steps; the run's loop when left out. */
  loop?: LoopName;
  /** The tools of this loop; the run's registry when left out. */
  registry?: ToolRegistry;
  /** Aborts this loop's model calls and tools (a task's own signal); the run's when left out. */
  signal?: AbortSignal;
  taskId?: string;
  /** The tag of the tool step's model calls (default act). */
  phase?: ModelPhase;
  /**
   * What this conversation has read, for the read-before-edit rule; the run's when left out.
   * Each plan task keeps its own, so a file another task changed must be read again.
   */
  files?: FileTracker;
  /** Where the tools work (a plan task's worktree); the run's workspace when left out. */
  workspace?: Workspace;
  /** The recovery counts (repetition, same failure) of this conversation; fresh when left out. */
  recovery?: RecoveryTracker;
  /** Forces a tool on the next tool step only (e.g. plan_actions under --plan always). */
  firstToolChoice?: ToolChoice<Record<string, SdkTool>>;
  /** Updates the conversation before each step (a task's prompt shows the current state). */
  refresh?: (conversation: Conversation) => void;
  /** Decides the next step from a finished step (what a step means differs per loop). */
  decide: (step: Step) => NextStep | Promise<NextStep>;
}

const STRATEGIES: Record<LoopName, LoopStrategy> = { react: reactStrategy, roa: roaStrategy };

/** The strategy of a loop by name. */
export function strategyFor(name: LoopName): LoopStrategy {
  return STRATEGIES[name];
}

/**
 * The loop driver: a bounded loop of steps, each produced by the strategy (`react` or `roa`).
 * Before each step the stop predicates are checked (stop requested, the loop's signal, max
 * steps); between its phases a stop is honoured; the recovery rules apply to its tool calls;
 * then `decide` turns the step into the next one.
 */
export async function runStepLoop(options: StepLoopOptions): Promise<LoopOutcome> {
  const { run, conversation, taskId } = options;
  const strategy = strategyFor(options.loop ?? run.loop);
  const recovery = options.recovery ?? new RecoveryTracker();
  const ctx: LoopContext = {
    run,
    conversation,
    registry: options.registry ?? run.registry,
    signal: options.signal ?? run.control.signal,
    taskId,
    files: options.files,
    workspace: options.workspace,
    actPhase: options.phase ?? 'act',
    toolChoice: options.firstToolChoice,
    nonAnswers: 0,
  };
  for (;;) {
    const stopped = checkStopPredicates(run, ctx.signal);
    if (stopped) return stopped;
    options.refresh?.(conversation);
    // This step's number, taken once: parallel plan tasks share run.steps, and another task's
    // step may begin during any await below.
    run.steps += 1;
    const step = run.steps;
    run.emit({ type: 'agent_update', update_type: 'agent_turn_start', step, task_id: taskId });
    // Background commands that ended since the model's last turn: it is told before this one.
    for (const notice of run.background?.takeEndNotices() ?? [])
      addNote(run, conversation, { step, taskId, ...notice });
    const compactionFailed = await compactIfNeeded(ctx, step);
    if (compactionFailed) return compactionFailed;

    const produced = await runStep(strategy, ctx, step, recovery);
    if (produced.kind === 'unreadable') continue;
    if (produced.kind === 'end') return produced.outcome;
    const next = await options.decide(produced.step);
    queueConversationSave(ctx);
    if (next.kind !== 'run_again') return next;
  }
}
