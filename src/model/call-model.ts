import { type ModelMessage, type Tool as SdkTool, streamText, type ToolChoice } from 'ai';
import { PROMPT_PLACEHOLDER, preparePrompt, withPreparedPrompt } from './prepared-prompt.js';
import { withRetry } from './retry.js';
import { streamTimeoutsOf, withStreamTimeouts } from './stream-timeouts.js';
import type { CallTag, ResolvedModel } from './types.js';

/** One tool call as the model made it; `args` is unvalidated. */
export interface ModelToolCall {
  id: string;
  name: string;
  args: unknown;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What one model call produced. */
export interface ModelReply {
  text: string;
  toolCalls: ModelToolCall[];
  usage: TokenUsage;
  finishReason: string;
}

export interface ModelCallRequest {
  model: ResolvedModel;
  system: string;
  messages: ModelMessage[];
  /** Tools the model may call; they have no execute: taskweave runs them itself. */
  tools?: Record<string, SdkTool>;
  /** Forces a tool (e.g. plan_actions when a plan is required); default: the model chooses. */
  toolChoice?: ToolChoice<Record<string, SdkTool>>;
  tag: CallTag;
  signal: AbortSignal;
  onTextDelta?: (text: string) => void;
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/**
 * Makes one streamed model call, retrying transient provider errors with backoff; a call whose
 * first part or next part is too long in coming (the model's stream timeouts) counts as one. Every call
 * carries `providerOptions.taskweave` so that calls can be told apart.
 */
export async function callModel(request: ModelCallRequest): Promise<ModelReply> {
  return withRetry(() => streamOnce(request), { signal: request.signal, onRetry: request.onRetry });
}

async function streamOnce(request: ModelCallRequest): Promise<ModelReply> {
  // Each try has its own abort, so that a stalled stream is cut without stopping the run.
  const attempt = new AbortController();
  let timedOut: Error | undefined;
  try {
    return await readStream(request, AbortSignal.any([request.signal, attempt.signal]), (error) => {
      timedOut = error;
      attempt.abort(error);
    });
  } catch (error) {
    throw timedOut && !request.signal.aborted ? timedOut : error;
  }
}

async function readStream(
  request: ModelCallRequest,
  signal: AbortSignal,
  onTimeout: (error: Error) => void,
): Promise<ModelReply> {
  const model = request.model.model;
  // Validated and converted once per message, not the whole history on every call.
  const prompt = await preparePrompt({
    system: request.system,
    messages: request.messages,
    model,
    signal,
  });
  const result = streamText({
    model: withPreparedPrompt(model, prompt),
    prompt: PROMPT_PLACEHOLDER,
    tools: request.tools,
    toolChoice: request.toolChoice,
    abortSignal: signal,
    maxRetries: 0,
    // Errors come back through fullStream and are rethrown there; the default handler would
    // also print each one (every retried 429) to stderr.
    onError: () => {},
    providerOptions: { taskweave: { ...request.tag } },
  });
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let finishReason = 'unknown';
  const timeouts = streamTimeoutsOf(request.model.timeouts);
  for await (const part of withStreamTimeouts(result.fullStream, { timeouts, onTimeout })) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        request.onTextDelta?.(part.text);
        break;
      case 'tool-call':
        toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
        break;
      case 'finish':
        usage = {
          inputTokens: part.totalUsage.inputTokens ?? 0,
          outputTokens: part.totalUsage.outputTokens ?? 0,
        };
        finishReason = part.finishReason;
        break;
      case 'error':
        throw part.error;
      case 'abort':
        throw signal.reason ?? new Error('The model call was aborted.');
    }
  }
  return { text, toolCalls, usage, finishReason };
}
