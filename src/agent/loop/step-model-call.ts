import type { ModelMessage, Tool as SdkTool, ToolChoice } from 'ai';
import { callModel, type ModelReply } from '../../model/call-model.js';
import type { ModelPhase } from '../../model/types.js';
import { errorMessage } from '../../util/error-message.js';
import { maskOldToolOutputs } from '../conversation/mask-outputs.js';
import { recordUsage } from '../state/usage.js';
import type { LoopContext } from './loop-context.js';
import type { Interruption } from './step.js';
import { abortedOutcome, stoppedOutcome } from './stop-predicates.js';

/** One model call of a step, as a phase asks for it. */
export interface StepModelRequest {
  step: number;
  phase: ModelPhase;
  system: string;
  messages: ModelMessage[];
  tools?: Record<string, SdkTool>;
  toolChoice?: ToolChoice<Record<string, SdkTool>>;
  /** Streams the text as `agent_text_delta` (text meant for people). */
  streamText: boolean;
}

/** The reply, or the interruption a failed call ends the loop with. */
export type StepModelCall = { ok: true; reply: ModelReply } | { ok: false; outcome: Interruption };

/**
 * Makes one model call of a step, tagged with its phase: retries are announced (`agent_retry`),
 * the tokens are recorded (`model_usage` with the phase), and a call that fails for good, or is
 * aborted by a stop, becomes the outcome that ends the loop.
 */
export async function callModelForStep(ctx: LoopContext, request: StepModelRequest): Promise<StepModelCall> {
  const { run, taskId, signal } = ctx;
  const { step, phase } = request;
  let reply: ModelReply;
  // With the first request, the workspace's language servers start loading (once per workspace).
  run.languageServers?.warmWorkspace({
    workspaceRoot: (ctx.workspace ?? run.workspace).root,
    sandbox: run.sandbox,
  });
  try {
    reply = await callModel({
      model: run.model,
      system: request.system,
      // Old tool outputs go as stubs; the conversation keeps them whole.
      messages: maskOldToolOutputs(request.messages, {
        isReadOnly: (name) => ctx.registry.get(name)?.readOnly ?? false,
      }),
      tools: request.tools,
      toolChoice: request.toolChoice,
      tag: { runId: run.runId, taskId, agent: run.subagent?.agent, phase },
      signal,
      onTextDelta: request.streamText
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
    if (run.control.stopRequested) return { ok: false, outcome: stoppedOutcome(run, step) };
    if (signal.aborted) return { ok: false, outcome: abortedOutcome() };
    const reason = `The model call failed: ${errorMessage(error)}`;
    return { ok: false, outcome: { kind: 'interruption', status: 'failed', reason } };
  }
  recordUsage(run, reply, { step, phase, taskId });
  return { ok: true, reply };
}

/**
 * The tools for a plain call (Reason, Observe): the conversation's tool definitions with tool
 * choice `none`, so the model cannot call any. They are still sent because some providers refuse
 * a conversation holding tool calls without tool definitions, and an identical prefix keeps the
 * provider's prompt cache warm between the phases.
 */
export function plainCallTools(ctx: LoopContext): Pick<StepModelRequest, 'tools' | 'toolChoice'> {
  const tools = ctx.run.protocol.modelTools(ctx.registry, ctx.run);
  return tools ? { tools, toolChoice: 'none' } : {};
}
