import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import type { ResolvedModel } from '../../src/model/types.js';

/** One scripted reply of the mock model. */
export interface MockTurn {
  text?: string;
  toolCalls?: { name: string; args: unknown }[];
  /** The finish reason reported (default: tool-calls with calls, else stop). */
  finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
}

/** A turn, or a function that decides the turn from the call (to assert on the prompt). */
export type MockStep = MockTurn | ((options: LanguageModelV3CallOptions) => MockTurn);

let callCounter = 0;

/** Builds the stream parts a provider would send for a turn. */
export function streamPartsFor(turn: MockTurn): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (turn.text) {
    parts.push({ type: 'text-start', id: 't' });
    for (const word of turn.text.split(/(?<= )/)) parts.push({ type: 'text-delta', id: 't', delta: word });
    parts.push({ type: 'text-end', id: 't' });
  }
  for (const call of turn.toolCalls ?? []) {
    callCounter += 1;
    parts.push({
      type: 'tool-call',
      toolCallId: `call-${callCounter}`,
      toolName: call.name,
      input: JSON.stringify(call.args),
    });
  }
  parts.push({
    type: 'finish',
    finishReason: {
      unified: turn.finishReason ?? (turn.toolCalls?.length ? 'tool-calls' : 'stop'),
      raw: undefined,
    },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
  });
  return parts;
}

/**
 * A MockLanguageModelV3 (from ai/test) that replies with the given steps in order and fails
 * clearly when the loop asks for more than were scripted.
 */
export function mockModel(steps: MockStep[]): ResolvedModel & { mock: MockLanguageModelV3 } {
  let index = 0;
  const mock = new MockLanguageModelV3({
    doStream: async (options) => {
      const step = steps[index++];
      if (step === undefined) throw new Error(`mock model: no step ${index} scripted`);
      const turn = typeof step === 'function' ? step(options) : step;
      return { stream: convertArrayToReadableStream(streamPartsFor(turn)) };
    },
  });
  return { id: 'mock:model', model: mock, mock };
}

/** All text in a call's prompt (system, user, assistant text and tool results), for assertions. */
export function promptText(options: LanguageModelV3CallOptions): string {
  const pieces: string[] = [];
  for (const message of options.prompt) {
    if (typeof message.content === 'string') {
      pieces.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') pieces.push(part.text);
      if (part.type === 'tool-result' && 'value' in part.output) pieces.push(String(part.output.value));
    }
  }
  return pieces.join('\n');
}
