import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { InvalidPromptError, type ModelMessage } from 'ai';
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal';
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

describe('callModel with a prepared prompt', () => {
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
});
