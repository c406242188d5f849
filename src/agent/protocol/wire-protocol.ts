import { randomUUID } from 'node:crypto';
import type { ModelMessage, Tool as SdkTool } from 'ai';
import type { ModelReply } from '../../model/call-model.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolOfferState } from '../../tools/types.js';
import type { ExecutedCall } from '../loop/execute-tools.js';
import {
  buildJsonProtocolInstructions,
  type ControlField,
  formatToolResultsForModel,
  parseAgentResponse,
  parseErrorMessageForModel,
} from './json-protocol.js';
import { modelToolsFor } from './model-tools.js';

/** Which wire protocol the model speaks: native tool calling, or JSON replies. */
export type ProtocolName = 'native' | 'json';

/** A reply read into the one internal shape (AgentResponse): text, tool calls, reasoning. */
export type ReadReply = { ok: true; reply: ModelReply; reasoning?: string } | { ok: false; error: string };

/**
 * Both wire protocols produce the same internal reply; the loop does not care which one the
 * model speaks. Native: tools go to the provider and results come back as tool messages. JSON:
 * the tools are described in the system prompt, the reply is a JSON object, results come back
 * as a user message.
 */
export interface WireProtocol {
  /** Whether the model's streamed text is for people (native) or a JSON document (json). */
  streamsText: boolean;
  /** The tools the registry offers in this state (the run's, each step), as the provider takes them. */
  modelTools(registry: ToolRegistry, state: ToolOfferState): Record<string, SdkTool> | undefined;
  /** The system prompt; the JSON protocol describes there the tools offered in this state. */
  system(base: string, registry: ToolRegistry, state: ToolOfferState): string;
  read(reply: ModelReply, registry: ToolRegistry): ReadReply;
  assistantMessage(raw: ModelReply, read: ReadReply): ModelMessage;
  resultsMessage(executed: ExecutedCall[]): ModelMessage | undefined;
  /** The message that sends an unreadable reply back to the model. */
  errorMessage(error: string): ModelMessage;
}

const nativeProtocol: WireProtocol = {
  streamsText: true,
  modelTools: (registry, state) => modelToolsFor(registry, state),
  system: (base) => base,
  read: (reply) => ({ ok: true, reply, reasoning: reply.toolCalls.length > 0 ? reply.text : undefined }),
  assistantMessage: (raw) => ({
    role: 'assistant',
    content: [
      ...(raw.text !== '' ? [{ type: 'text' as const, text: raw.text }] : []),
      ...raw.toolCalls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: call.args,
      })),
    ],
  }),
  resultsMessage: (executed) =>
    executed.length === 0
      ? undefined
      : {
          role: 'tool',
          content: executed.map(({ call, result }) => ({
            type: 'tool-result' as const,
            toolCallId: call.id,
            toolName: call.name,
            output: result.isError
              ? { type: 'error-text' as const, value: result.output }
              : { type: 'text' as const, value: result.output },
          })),
        },
  errorMessage: (error) => ({ role: 'user', content: error }),
};

const CONTROL_FIELDS: ControlField[] = ['task_completed', 'final_answer'];

const jsonProtocol: WireProtocol = {
  streamsText: false,
  modelTools: () => undefined,
  system: (base, registry, state) => {
    // final_answer is always offered: in simple mode a reply without tool calls is the answer.
    const controlFields = CONTROL_FIELDS.filter(
      (field) => field === 'final_answer' || registry.get(field) !== undefined,
    );
    const tools = registry
      .offered(state)
      .filter((tool) => !CONTROL_FIELDS.some((field) => field === tool.name));
    return `${base}\n\n${buildJsonProtocolInstructions({ tools, controlFields })}`;
  },
  read: (raw, registry) => {
    const parsed = parseAgentResponse(raw.text);
    if (!parsed.ok) return parsed;
    const { response } = parsed;
    const toolCalls = response.tool_calls.map((call) => ({
      id: randomUUID(),
      name: call.name,
      args: call.args,
    }));
    if (response.task_completed !== undefined) {
      toolCalls.push({
        id: randomUUID(),
        name: 'task_completed',
        args: { summary: response.task_completed },
      });
    }
    // Reasoning alone is not an answer: without calls it leaves the reply's text empty.
    let text = toolCalls.length > 0 ? (response.reasoning ?? '') : '';
    if (response.final_answer !== undefined) {
      // With a final_answer tool (complex mode) the orchestrator judges it; in simple mode a
      // reply without tool calls is the answer.
      if (registry.get('final_answer')) {
        toolCalls.push({ id: randomUUID(), name: 'final_answer', args: { answer: response.final_answer } });
      } else {
        text = response.final_answer;
      }
    }
    return { ok: true, reply: { ...raw, text, toolCalls }, reasoning: response.reasoning };
  },
  assistantMessage: (raw) => ({ role: 'assistant', content: raw.text }),
  resultsMessage: (executed) =>
    executed.length === 0
      ? undefined
      : {
          role: 'user',
          content: formatToolResultsForModel(
            executed.map(({ call, result }) => ({
              name: call.name,
              args: call.args,
              output: result.output,
              isError: result.isError,
            })),
          ),
        },
  errorMessage: (error) => ({ role: 'user', content: parseErrorMessageForModel(error) }),
};

/** The protocol by name. */
export function wireProtocol(name: ProtocolName): WireProtocol {
  return name === 'json' ? jsonProtocol : nativeProtocol;
}
