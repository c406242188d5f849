import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { InvalidPromptError, jsonSchema, type ModelMessage, streamText, tool } from 'ai';
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { callModel } from '../../src/model/call-model.js';
import { preparePrompt } from '../../src/model/prepared-prompt.js';
import { mockModel } from '../helpers/mock-model.js';

function step(index: number): ModelMessage[] {
  const id = `call-${index}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading f${index}.` },
        { type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `f${index}.ts` } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read_file',
          output: { type: 'text', value: `file ${index}` },
        },
      ],
    },
  ];
}

function conversation(steps: number): ModelMessage[] {
  return [
    { role: 'user', content: 'Read the files.' },
    ...Array.from({ length: steps }, (_, i) => step(i)).flat(),
  ];
}

/** What the SDK itself sends for the same system and messages. */
async function sdkPrompt(system: string, messages: ModelMessage[]) {
  const standardized = await standardizePrompt({ system, messages });
  return convertToLanguageModelPrompt({ prompt: standardized, supportedUrls: {}, download: undefined });
}

describe('preparePrompt', () => {
  it('builds the prompt the SDK builds', async () => {
    const { model } = mockModel([]);
    const messages = conversation(3);
    messages.push({ role: 'user', content: [{ type: 'text', text: 'And now?' }] });
    expect(await preparePrompt({ system: 'You help.', messages, model })).toEqual(
      await sdkPrompt('You help.', messages),
    );
  });

  it('converts a message once: a later call reuses it, a group that grew is converted again', async () => {
    const { model } = mockModel([]);
    const messages = conversation(2);
    const first = await preparePrompt({ system: 's', messages, model });
    const assistant: ModelMessage = step(2)[0]!;
    messages.push(assistant, step(2)[1]!);
    const second = await preparePrompt({ system: 's', messages, model });
    // The earlier messages (after the system message) are the very objects the first call built.
    for (let index = 1; index < first.length; index++) expect(second[index]).toBe(first[index]);
    expect(second).toEqual(await sdkPrompt('s', messages));
  });

  it('refuses a message that is not a ModelMessage, with the SDK error', async () => {
    const { model } = mockModel([]);
    const bad = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 1 }],
    } as unknown as ModelMessage;
    await expect(preparePrompt({ system: 's', messages: [bad], model })).rejects.toBeInstanceOf(
      InvalidPromptError,
    );
  });

  it('refuses a tool call without a result', async () => {
    const { model } = mockModel([]);
    const messages = [...conversation(1), step(1)[0]!];
    await expect(preparePrompt({ system: 's', messages, model })).rejects.toThrow(/tool result/i);
  });
});

/** A mock turn that keeps the call's options and answers "ok". */
function recordInto(seen: LanguageModelV3CallOptions[]) {
  return (options: LanguageModelV3CallOptions) => {
    seen.push(options);
    return { text: 'ok' };
  };
}

/** A call of a model that streams exactly `parts`. */
function callStreaming(parts: LanguageModelV3StreamPart[]) {
  return {
    model: {
      id: 'mock',
      model: new MockLanguageModelV3({
        doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
      }),
    },
    system: 's',
    messages: conversation(0),
    tag: { runId: 'r1', phase: 'act' as const },
    signal: new AbortController().signal,
  };
}

describe('callModel', () => {
  it('sends the provider the whole conversation, tools and tag as streamText would', async () => {
    const seen: LanguageModelV3CallOptions[] = [];
    const model = mockModel([
      (options) => {
        seen.push(options);
        return { text: 'Done.' };
      },
    ]);
    const messages = conversation(2);
    const reply = await callModel({
      model,
      system: 'You help.',
      messages,
      tag: { runId: 'r1', phase: 'act' },
      signal: new AbortController().signal,
    });
    expect(reply.text).toBe('Done.');
    expect(seen[0]?.prompt).toEqual(await sdkPrompt('You help.', messages));
    expect(seen[0]?.providerOptions?.taskweave).toEqual({ runId: 'r1', phase: 'act' });
  });

  it('prepares tools and tool choice as streamText does', async () => {
    const tools = {
      read_file: tool({
        description: 'Reads a file.',
        inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }),
      }),
      finish: tool({ description: 'Ends.', inputSchema: jsonSchema({ type: 'object', properties: {} }) }),
    };
    const choices = [undefined, 'none', 'required', { type: 'tool', toolName: 'finish' }] as const;
    for (const toolChoice of choices) {
      const ours: LanguageModelV3CallOptions[] = [];
      await callModel({
        model: mockModel([recordInto(ours)]),
        system: 's',
        messages: conversation(0),
        tools,
        toolChoice,
        tag: { runId: 'r1', phase: 'act' },
        signal: new AbortController().signal,
      });
      const sdk: LanguageModelV3CallOptions[] = [];
      const result = streamText({
        model: mockModel([recordInto(sdk)]).model,
        prompt: 'x',
        tools,
        toolChoice,
      });
      await result.consumeStream();
      expect(ours[0]?.tools).toEqual(sdk[0]?.tools);
      expect(ours[0]?.toolChoice).toEqual(sdk[0]?.toolChoice);
    }
  });

  it('reads text, tool calls (JSON, empty or not JSON), usage and the finish reason from the stream', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-delta', id: 't', delta: 'Reading ' },
      { type: 'text-delta', id: 't', delta: 'now.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"a.ts"}' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'list_files', input: '  ' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'read_file', input: '{"path": "b.ts"' },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: {
          inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 7, text: 7, reasoning: undefined },
        },
      },
    ];
    const deltas: string[] = [];
    const reply = await callModel({ ...callStreaming(parts), onTextDelta: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['Reading ', 'now.']);
    expect(reply).toEqual({
      text: 'Reading now.',
      toolCalls: [
        { id: 'c1', name: 'read_file', args: { path: 'a.ts' } },
        { id: 'c2', name: 'list_files', args: {} },
        // Not JSON: passed on as sent, for the tool's validation to refuse with the reason.
        { id: 'c3', name: 'read_file', args: '{"path": "b.ts"' },
      ],
      usage: { inputTokens: 120, outputTokens: 7 },
      finishReason: 'tool-calls',
    });
  });

  it('fails with the error a stream part carries', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'text-delta', id: 't', delta: 'Hal' },
      { type: 'error', error: new Error('overloaded') },
    ];
    await expect(
      callModel({
        ...callStreaming(parts),
      }),
    ).rejects.toThrow('overloaded');
  });
});
