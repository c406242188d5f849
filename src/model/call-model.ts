import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { safeParseJSON } from '@ai-sdk/provider-utils';
import { asSchema, type ModelMessage, type Tool as SdkTool, type ToolChoice } from 'ai';
import { mapFor } from '../util/nested-map.js';
import { preparePrompt } from './prepared-prompt.js';
import { withRetry } from './retry.js';
import { streamTimeoutsOf, withStreamTimeouts } from './stream-timeouts.js';
import { toolImagesAsUserMessages, toolMessagesAreTextOnly } from './tool-result-images.js';
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
  // Each try has its own abort, so that a stalled stream is cut without stopping the run; the
  // run's signal is forwarded to it (AbortSignal.any costs more than the rest of a call's set-up).
  const attempt = new AbortController();
  const forward = () => attempt.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  else request.signal.addEventListener('abort', forward, { once: true });
  let timedOut: Error | undefined;
  try {
    return await readStream(request, attempt.signal, (error) => {
      timedOut = error;
      attempt.abort(error);
    });
  } catch (error) {
    throw timedOut && !request.signal.aborted ? timedOut : error;
  } finally {
    request.signal.removeEventListener('abort', forward);
  }
}

/**
 * One try: the prepared prompt and the tools go straight to the provider's `doStream`, and its
 * parts are read here. The AI SDK's streamText would validate and convert the prompt again, pass
 * every part through a chain of web streams and parse tool calls we validate ourselves anyway:
 * about 0.8 ms before each call and 0.05 ms per streamed part, on the path from one plan task
 * to the next. The tools and tool choice are prepared as streamText prepares them.
 */
async function readStream(
  request: ModelCallRequest,
  signal: AbortSignal,
  onTimeout: (error: Error) => void,
): Promise<ModelReply> {
  const model = request.model.model;
  // Validated and converted once per message, not the whole history on every call.
  const prepared = await preparePrompt({
    system: request.system,
    messages: request.messages,
    model,
    signal,
  });
  const prompt = toolMessagesAreTextOnly(model.provider) ? toolImagesAsUserMessages(prepared) : prepared;
  const { tools, toolChoice } = await providerTools(request.tools, request.toolChoice);
  // The call itself is inside the stream that the timeouts watch: a server that never answers
  // counts against the first-token timeout like one that answers and then says nothing.
  async function* parts() {
    const { stream } = await model.doStream({
      prompt,
      tools,
      toolChoice,
      abortSignal: signal,
      providerOptions: { taskweave: { ...request.tag } },
    });
    yield* stream;
  }
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let finishReason = 'unknown';
  const timeouts = streamTimeoutsOf(request.model.timeouts);
  for await (const part of withStreamTimeouts(parts(), { timeouts, onTimeout })) {
    switch (part.type) {
      case 'text-delta':
        if (part.delta === '') break;
        text += part.delta;
        request.onTextDelta?.(part.delta);
        break;
      case 'tool-call':
        toolCalls.push({ id: part.toolCallId, name: part.toolName, args: await toolInput(part.input) });
        break;
      case 'finish':
        usage = {
          inputTokens: part.usage.inputTokens.total ?? 0,
          outputTokens: part.usage.outputTokens.total ?? 0,
        };
        finishReason = part.finishReason.unified;
        break;
      case 'error':
        throw part.error;
    }
  }
  if (signal.aborted) throw signal.reason ?? new Error('The model call was aborted.');
  return { text, toolCalls, usage, finishReason };
}

/**
 * A tool call's arguments as the model sent them: parsed JSON (nothing is `{}`), or the text
 * itself when it is not JSON, for the tool's own validation to refuse with the reason.
 */
async function toolInput(input: string): Promise<unknown> {
  if (input.trim() === '') return {};
  const parsed = await safeParseJSON({ text: input });
  return parsed.success ? parsed.value : input;
}

const providerToolCache = new WeakMap<Record<string, SdkTool>, LanguageModelV3FunctionTool[]>();
/** Per tool and name: the tool sets of plan tasks share most of their tools. */
const providerToolByTool = new WeakMap<SdkTool, Map<string, LanguageModelV3FunctionTool>>();

async function providerTool(name: string, tool: SdkTool): Promise<LanguageModelV3FunctionTool> {
  const byName = mapFor(providerToolByTool, tool);
  let converted = byName.get(name);
  if (converted === undefined) {
    converted = {
      type: 'function',
      name,
      description: tool.description,
      inputSchema: await asSchema(tool.inputSchema).jsonSchema,
      ...(tool.providerOptions === undefined ? {} : { providerOptions: tool.providerOptions }),
    };
    byName.set(name, converted);
  }
  return converted;
}

/**
 * The tools as the provider takes them (as the AI SDK's streamText prepares them), converted
 * once per tool set; tool choice `auto` unless one is given.
 */
async function providerTools(
  tools: Record<string, SdkTool> | undefined,
  toolChoice: ToolChoice<Record<string, SdkTool>> | undefined,
): Promise<Pick<LanguageModelV3CallOptions, 'tools' | 'toolChoice'>> {
  if (tools === undefined || Object.keys(tools).length === 0) {
    return { tools: undefined, toolChoice: toolChoice === 'none' ? { type: 'none' } : undefined };
  }
  let converted = providerToolCache.get(tools);
  if (converted === undefined) {
    converted = [];
    for (const [name, tool] of Object.entries(tools)) converted.push(await providerTool(name, tool));
    providerToolCache.set(tools, converted);
  }
  return {
    tools: converted,
    toolChoice:
      toolChoice === undefined
        ? { type: 'auto' }
        : typeof toolChoice === 'string'
          ? { type: toolChoice }
          : { type: 'tool', toolName: toolChoice.toolName },
  };
}
