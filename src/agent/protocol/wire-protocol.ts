import { randomUUID } from 'node:crypto';
import type { ImageRecord } from '../../events/images.js';
import type { TakenImage } from '../../util/image-intake.js';
import { imagePart, imageToolOutput } from '../state/image-parts.js';
import type { WireProtocol } from '../state/wire-protocol.js';
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

/*
 * The two implementations of the run's WireProtocol (declared in state/). Native: tools go to
 * the provider and results come back as tool messages. JSON: the tools are described in the
 * system prompt, the reply is a JSON object, results come back as a user message.
 */
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
              : result.image === undefined
                ? { type: 'text' as const, value: result.output }
                : imageToolOutput(result.output, recordOf(result.image), result.image.bytes),
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
  resultsMessage: (executed) => {
    if (executed.length === 0) return undefined;
    const text = formatToolResultsForModel(
      executed.map(({ call, result }) => ({
        name: call.name,
        args: call.args,
        output: result.output,
        isError: result.isError,
      })),
    );
    // A result's image (read_file of an image file) follows the results, as a user's image would.
    const images = executed.flatMap(({ result }) =>
      result.image === undefined || result.isError
        ? []
        : [imagePart(recordOf(result.image), result.image.bytes)],
    );
    return { role: 'user', content: images.length === 0 ? text : [{ type: 'text', text }, ...images] };
  },
  errorMessage: (error) => ({ role: 'user', content: parseErrorMessageForModel(error) }),
};

/** The protocol by name. */
export function wireProtocol(name: ProtocolName): WireProtocol {
  return name === 'json' ? jsonProtocol : nativeProtocol;
}

function recordOf(image: TakenImage): ImageRecord {
  return { hash: image.hash, media_type: image.media_type, width: image.width, height: image.height };
}
