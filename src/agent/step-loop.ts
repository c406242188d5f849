import type { Tool as SdkTool, ToolChoice } from 'ai';
import { callModel, type ModelReply } from '../model/call-model.js';
import type { ModelPhase } from '../model/types.js';
import type { FileTracker } from '../tools/file-tracker.js';
import type { ToolRegistry } from '../tools/registry.js';
import { errorMessage } from '../util/error-message.js';
import { applyRecovery } from './apply-recovery.js';
import { type ExecutedCall, executeTools } from './execute-tools.js';
import type { LoopOutcome, NextStep } from './next-step.js';
import { RecoveryTracker } from './recovery.js';
import type { Conversation, RunContext } from './run-state.js';
import { toolContextFor } from './tool-context.js';
import { recordUsage } from './usage.js';

export type { LoopOutcome, NextStep } from './next-step.js';

export interface StepLoopOptions {
  run: RunContext;
  conversation: Conversation;
  /** The tools of this loop; the run's registry when left out. */
  registry?: ToolRegistry;
  /** Aborts this loop's model calls and tools (a task's own signal); the run's when left out. */
  signal?: AbortSignal;
  taskId?: string;
  phase?: ModelPhase;
  /**
   * What this conversation has read, for the read-before-edit rule; the run's when left out.
   * Each plan task keeps its own, so a file another task changed must be read again.
   */
  files?: FileTracker;
  /** The recovery counts (repetition, same failure) of this conversation; fresh when left out. */
  recovery?: RecoveryTracker;
  /** Forces a tool on the next model call only (e.g. plan_actions under --plan always). */
  firstToolChoice?: ToolChoice<Record<string, SdkTool>>;
  /** Updates the conversation before each model call (a task's prompt shows the current state). */
  refresh?: (conversation: Conversation) => void;
  /** Decides the next step from a reply and its executed calls (what a reply means differs per loop). */
  decide: (reply: ModelReply, executed: ExecutedCall[]) => NextStep | Promise<NextStep>;
}

/**
 * The tool-first loop: one step = one model call + the execution of the tool calls it made,
 * repeated until a stop predicate holds. Bounded by the run's step budget.
 */
export async function runStepLoop(options: StepLoopOptions): Promise<LoopOutcome> {
  const { run, conversation, taskId } = options;
  const { decide } = options;
  const registry = options.registry ?? run.registry;
  const signal = options.signal ?? run.control.signal;
  const protocol = run.protocol;
  const recovery = options.recovery ?? new RecoveryTracker();
  let toolChoice = options.firstToolChoice;
  for (;;) {
    const stopped = checkStopPredicates(run);
    if (stopped) return stopped;
    if (signal.aborted) return { kind: 'interruption', status: 'stopped', reason: 'The task was aborted.' };
    options.refresh?.(conversation);

    run.steps += 1;
    const step = run.steps;
    run.emit({ type: 'agent_update', update_type: 'agent_turn_start', step, task_id: taskId });

    let raw: ModelReply;
    try {
      raw = await callModel({
        model: run.model,
        system: protocol.system(conversation.system, registry),
        messages: conversation.messages,
        tools: protocol.modelTools(registry),
        toolChoice: protocol.modelTools(registry) ? toolChoice : undefined,
        tag: { runId: run.runId, taskId, phase: options.phase ?? 'act' },
        signal,
        onTextDelta: protocol.streamsText
          ? (content) =>
              run.emit({
                type: 'agent_update',
                update_type: 'agent_text_delta',
                step,
                content,
                task_id: taskId,
              })
          : undefined,
        onRetry: ({ attempt, delayMs, error }) =>
          run.emit({
            type: 'agent_update',
            update_type: 'agent_retry',
            step,
            attempt,
            delay_ms: delayMs,
            error: errorMessage(error),
          }),
      });
    } catch (error) {
      if (run.control.stopRequested) return stoppedOutcome(run, step);
      if (signal.aborted) return { kind: 'interruption', status: 'stopped', reason: 'The task was aborted.' };
      return {
        kind: 'interruption',
        status: 'failed',
        reason: `The model call failed: ${errorMessage(error)}`,
      };
    }
    toolChoice = undefined;
    recordUsage(run, raw, { step, phase: options.phase ?? 'act', taskId });

    const read = protocol.read(raw, registry);
    conversation.messages.push(protocol.assistantMessage(raw, read));
    if (!read.ok) {
      run.emit({
        type: 'agent_update',
        update_type: 'agent_note',
        step,
        content: `The reply could not be read: ${read.error}`,
        task_id: taskId,
      });
      conversation.messages.push(protocol.errorMessage(read.error));
      await run.records.saveMessages(run.runId, conversation);
      continue;
    }
    // The calls are on record before they run: a crash in between leaves a call whose result a
    // resumed run recovers from the event log (or marks unknown) instead of losing it.
    await run.records.saveMessages(run.runId, conversation);
    const reply = read.reply;
    if (read.reasoning && read.reasoning.trim() !== '') {
      run.emit({
        type: 'agent_update',
        update_type: 'agent_reason',
        step,
        content: read.reasoning,
        task_id: taskId,
      });
    }
    const executed = await executeTools({
      calls: reply.toolCalls,
      registry,
      contextFor: (call) => toolContextFor(run, { call, step, taskId, signal, files: options.files }),
      emit: run.emit,
      step,
      taskId,
      signal,
      locks: run.pathLocks,
      workspaceRoot: run.workspace.root,
    });
    const results = protocol.resultsMessage(executed);
    if (results) conversation.messages.push(results);
    // Saved before any way out of the step, so that a stored conversation never ends with calls
    // that have no results (a continued session would be refused by the provider).
    await run.records.saveMessages(run.runId, conversation);

    if (run.control.stopRequested) return stoppedOutcome(run, step);
    const recovered = await applyRecovery({ run, conversation, executed, step, taskId, recovery, signal });
    await run.records.saveMessages(run.runId, conversation);
    if (recovered) return recovered;
    if (run.control.pendingQuestion !== undefined) {
      return { kind: 'interruption', status: 'needs_input', reason: run.control.pendingQuestion };
    }
    const next = await decide(reply, executed);
    await run.records.saveMessages(run.runId, conversation);
    if (next.kind !== 'run_again') return next;
  }
}

function checkStopPredicates(run: RunContext): LoopOutcome | undefined {
  if (run.control.stopRequested) return stoppedOutcome(run, run.steps);
  const storeFailure = run.records.journal.failure;
  if (storeFailure) return { kind: 'interruption', status: 'failed', reason: storeFailure.message };
  if (run.steps >= run.maxSteps) {
    return {
      kind: 'interruption',
      status: 'max_steps',
      reason: `The step limit of ${run.maxSteps} was reached.`,
    };
  }
  return undefined;
}

function stoppedOutcome(run: RunContext, step: number): LoopOutcome {
  run.emit({ type: 'agent_update', update_type: 'agent_stopped', step });
  return { kind: 'interruption', status: 'stopped', reason: 'Stopped by the user.' };
}
