import type { ModelMessage } from 'ai';
import type { RunStatus } from '../events/registry.js';
import { callModel, type ModelReply } from '../model/call-model.js';
import type { ModelPhase } from '../model/types.js';
import { errorMessage } from '../util/error-message.js';
import { applyRecovery } from './apply-recovery.js';
import { type ExecutedCall, executeTools } from './execute-tools.js';
import type { Conversation, RunContext } from './run-state.js';
import { modelToolsFor, toolContextFor } from './tool-context.js';

/** What the loop does after a step: a tagged value, as openai-agents-js does. */
export type NextStep =
  | { kind: 'run_again' }
  | { kind: 'final'; answer: string }
  | { kind: 'interruption'; status: Exclude<RunStatus, 'completed'>; reason: string };

/** How a loop ended. */
export type LoopOutcome = Exclude<NextStep, { kind: 'run_again' }>;

export interface StepLoopOptions {
  run: RunContext;
  conversation: Conversation;
  taskId?: string;
  phase?: ModelPhase;
  /**
   * Decides the next step from a reply and its executed calls. The default (simple mode): a
   * reply without tool calls is the answer.
   */
  decide?: (reply: ModelReply, executed: ExecutedCall[]) => NextStep | Promise<NextStep>;
}

/**
 * The tool-first loop: one step = one model call + the execution of the tool calls it made,
 * repeated until a stop predicate holds. Bounded by the run's step budget.
 */
export async function runStepLoop(options: StepLoopOptions): Promise<LoopOutcome> {
  const { run, conversation, taskId } = options;
  const decide = options.decide ?? decideSimple;
  for (;;) {
    const stopped = checkStopPredicates(run);
    if (stopped) return stopped;

    run.steps += 1;
    const step = run.steps;
    run.emit({ type: 'agent_update', update_type: 'agent_turn_start', step, task_id: taskId });

    let reply: ModelReply;
    try {
      reply = await callModel({
        model: run.model,
        system: conversation.system,
        messages: conversation.messages,
        tools: modelToolsFor(run.registry),
        tag: { runId: run.runId, taskId, phase: options.phase ?? 'act' },
        signal: run.control.signal,
        onTextDelta: (content) =>
          run.emit({ type: 'agent_update', update_type: 'agent_text_delta', step, content, task_id: taskId }),
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
      return {
        kind: 'interruption',
        status: 'failed',
        reason: `The model call failed: ${errorMessage(error)}`,
      };
    }
    recordUsage(run, reply, step, taskId, options.phase ?? 'act');

    if (reply.toolCalls.length > 0 && reply.text.trim() !== '') {
      run.emit({
        type: 'agent_update',
        update_type: 'agent_reason',
        step,
        content: reply.text,
        task_id: taskId,
      });
    }
    conversation.messages.push(assistantMessage(reply));
    const executed = await executeTools({
      calls: reply.toolCalls,
      registry: run.registry,
      contextFor: (call) => toolContextFor(run, call, step, taskId),
      emit: run.emit,
      step,
      taskId,
      signal: run.control.signal,
    });
    if (executed.length > 0) conversation.messages.push(toolMessage(executed));

    if (run.control.stopRequested) return stoppedOutcome(run, step);
    const recovered = await applyRecovery({ run, conversation, executed, step, taskId });
    if (recovered) return recovered;
    if (run.control.pendingQuestion !== undefined) {
      return { kind: 'interruption', status: 'needs_input', reason: run.control.pendingQuestion };
    }
    const next = await decide(reply, executed);
    if (next.kind !== 'run_again') return next;
  }
}

function decideSimple(reply: ModelReply): NextStep {
  return reply.toolCalls.length === 0 ? { kind: 'final', answer: reply.text.trim() } : { kind: 'run_again' };
}

function checkStopPredicates(run: RunContext): LoopOutcome | undefined {
  if (run.control.stopRequested) return stoppedOutcome(run, run.steps);
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

function recordUsage(
  run: RunContext,
  reply: ModelReply,
  step: number,
  taskId: string | undefined,
  phase: string,
) {
  run.usage.inputTokens += reply.usage.inputTokens;
  run.usage.outputTokens += reply.usage.outputTokens;
  run.emit({
    type: 'agent_update',
    update_type: 'model_usage',
    step,
    phase,
    task_id: taskId,
    input_tokens: reply.usage.inputTokens,
    output_tokens: reply.usage.outputTokens,
  });
}

function assistantMessage(reply: ModelReply): ModelMessage {
  return {
    role: 'assistant',
    content: [
      ...(reply.text !== '' ? [{ type: 'text' as const, text: reply.text }] : []),
      ...reply.toolCalls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: call.args,
      })),
    ],
  };
}

function toolMessage(executed: ExecutedCall[]): ModelMessage {
  return {
    role: 'tool',
    content: executed.map(({ call, result }) => ({
      type: 'tool-result' as const,
      toolCallId: call.id,
      toolName: call.name,
      output: result.isError
        ? { type: 'error-text' as const, value: result.output }
        : { type: 'text' as const, value: result.output },
    })),
  };
}
