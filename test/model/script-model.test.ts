import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APICallError, type LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { type ModelMessage, streamText, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isTransientError } from '../../src/model/retry.js';
import { loadScriptModel, ScriptExhaustedError, ScriptModel } from '../../src/model/script-model.js';
import type { ModelScriptInput } from '../../src/model/script-schema.js';
import { type CallTag, ModelConfigError } from '../../src/model/types.js';

const tools = {
  write_file: tool({
    description: 'Writes a file.',
    inputSchema: z.object({ path: z.string(), content: z.string() }),
  }),
  read_file: tool({ description: 'Reads a file.', inputSchema: z.object({ path: z.string() }) }),
};

interface StreamOutcome {
  text: string;
  textDeltas: string[];
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  error?: unknown;
}

/** Calls the model the way the agent does: streamText with tools that have no execute. */
async function callAsAgent(
  model: ScriptModel,
  tag: Partial<CallTag>,
  options: { messages?: ModelMessage[]; system?: string; abortSignal?: AbortSignal } = {},
): Promise<StreamOutcome> {
  const result = streamText({
    model,
    system: options.system,
    messages: options.messages ?? [{ role: 'user', content: 'do the work' }],
    tools,
    maxRetries: 0,
    abortSignal: options.abortSignal,
    providerOptions: { taskweave: { runId: 'run-1', ...tag } },
    onError: () => {},
  });
  const outcome: StreamOutcome = { text: '', textDeltas: [], toolCalls: [] };
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      outcome.text += part.text;
      outcome.textDeltas.push(part.text);
    } else if (part.type === 'tool-call') {
      outcome.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    } else if (part.type === 'finish') {
      outcome.finishReason = part.finishReason;
      outcome.inputTokens = part.totalUsage.inputTokens;
      outcome.outputTokens = part.totalUsage.outputTokens;
    } else if (part.type === 'error') {
      outcome.error = part.error;
    }
  }
  return outcome;
}

/** The text of a reply, failing the test with the error when the call failed. */
async function replyText(
  model: ScriptModel,
  tag: Partial<CallTag>,
  messages?: ModelMessage[],
): Promise<string> {
  const outcome = await callAsAgent(model, tag, { messages });
  if (outcome.error !== undefined) throw outcome.error;
  return outcome.text;
}

function callOptions(tag: Partial<CallTag>, abortSignal?: AbortSignal): LanguageModelV3CallOptions {
  return {
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    providerOptions: { taskweave: { runId: 'run-1', ...tag } },
    abortSignal,
  };
}

describe('ScriptModel replies', () => {
  it('streams text in several deltas and tool calls with parsed input through streamText', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        {
          text: 'I will write the file now.',
          toolCalls: [
            { name: 'write_file', args: { path: 'a.txt', content: 'x' } },
            { name: 'read_file', args: { path: 'a.txt' }, id: 'my-call' },
          ],
        },
      ],
    });
    const outcome = await callAsAgent(model, { phase: 'act' });
    expect(outcome.error).toBeUndefined();
    expect(outcome.text).toBe('I will write the file now.');
    expect(outcome.textDeltas.length).toBeGreaterThan(1);
    expect(outcome.toolCalls).toHaveLength(2);
    expect(outcome.toolCalls[0]).toMatchObject({
      toolName: 'write_file',
      input: { path: 'a.txt', content: 'x' },
    });
    expect(outcome.toolCalls[0]?.toolCallId).toMatch(/\S/);
    expect(outcome.toolCalls[1]).toMatchObject({ toolCallId: 'my-call', toolName: 'read_file' });
    expect(outcome.finishReason).toBe('tool-calls');
    expect(outcome.inputTokens).toBeGreaterThan(0);
    expect(outcome.outputTokens).toBeGreaterThan(0);
  });

  it('finishes with stop when a turn has no tool calls', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'All done.' }] });
    const outcome = await callAsAgent(model, { phase: 'act' });
    expect(outcome).toMatchObject({ text: 'All done.', toolCalls: [], finishReason: 'stop' });
  });

  it('generates distinct ids for tool calls without one', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        {
          toolCalls: [
            { name: 'read_file', args: { path: 'a' } },
            { name: 'read_file', args: { path: 'b' } },
          ],
        },
        { toolCalls: [{ name: 'read_file', args: { path: 'c' } }] },
      ],
    });
    const first = await callAsAgent(model, { phase: 'act' });
    const second = await callAsAgent(model, { phase: 'act' });
    const ids = [...first.toolCalls, ...second.toolCalls].map((call) => call.toolCallId);
    expect(new Set(ids).size).toBe(3);
  });

  it('returns object as JSON text', async () => {
    const observation = { observation: 'done', should_continue: false, final_answer: 'ok' };
    const model = ScriptModel.fromScript({ turns: [{ phase: 'observe', object: observation }] });
    const result = await model.doGenerate(callOptions({ phase: 'observe' }));
    const text = result.content.find((part) => part.type === 'text');
    expect(text?.type === 'text' && JSON.parse(text.text)).toEqual(observation);
    expect(result.finishReason.unified).toBe('stop');
  });

  it('answers doGenerate with text and tool-call content', async () => {
    const model = ScriptModel.fromScript({
      turns: [{ text: 'Reading.', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] }],
    });
    const result = await model.doGenerate(callOptions({ phase: 'act' }));
    expect(result.content).toEqual([
      { type: 'text', text: 'Reading.' },
      expect.objectContaining({ type: 'tool-call', toolName: 'read_file', input: '{"path":"a.txt"}' }),
    ]);
    expect(result.finishReason.unified).toBe('tool-calls');
    expect(result.usage.inputTokens.total).toBeGreaterThan(0);
  });
});

describe('ScriptModel token estimate', () => {
  it('counts the tool definitions sent with a call, not only the messages', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'a' }, { text: 'b' }] });
    const bare = await model.doGenerate(callOptions({ phase: 'act' }));
    const withTools = await model.doGenerate({
      ...callOptions({ phase: 'act' }),
      tools: [
        {
          type: 'function',
          name: 'read_file',
          description: 'Reads a file. '.repeat(40),
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
    const extra = (withTools.usage.inputTokens.total ?? 0) - (bare.usage.inputTokens.total ?? 0);
    // 560 characters of description alone: about 140 tokens at four characters a token.
    expect(extra).toBeGreaterThan(140);
  });
});

describe('ScriptModel turn matching', () => {
  it('answers a compaction call with a compact turn only', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        { phase: 'compact', text: 'the summary' },
        { phase: 'act', text: 'a step' },
      ],
    });
    expect(await replyText(model, { phase: 'act' })).toBe('a step');
    expect(await replyText(model, { phase: 'compact' })).toBe('the summary');
  });

  it('never gives a compaction call a turn written without a phase (it is meant for a step)', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'the next step' }] });
    await expect(replyText(model, { phase: 'compact' })).rejects.toThrow(/script exhausted/);
    expect(await replyText(model, { phase: 'act' })).toBe('the next step');
  });

  it('takes the first unused turn that matches, skipping turns for other tasks', async () => {
    const model = ScriptModel.fromScript({
      turns: [{ task: 't2', text: 'for t2' }, { text: 'any 1' }, { text: 'any 2' }],
    });
    expect(await replyText(model, { taskId: 't1', phase: 'act' })).toBe('any 1');
    expect(await replyText(model, { taskId: 't2', phase: 'act' })).toBe('for t2');
    expect(await replyText(model, { taskId: 't2', phase: 'act' })).toBe('any 2');
    expect(model.usedTurns).toBe(3);
    expect(model.remainingTurns).toBe(0);
  });

  it('matches on phase', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        { phase: 'observe', text: 'observed' },
        { phase: 'reason', text: 'reasoned' },
      ],
    });
    expect(await replyText(model, { phase: 'reason' })).toBe('reasoned');
    expect(await replyText(model, { phase: 'observe' })).toBe('observed');
  });

  it('a turn with task, phase and when needs all three to match', async () => {
    const model = ScriptModel.fromScript({
      turns: [{ task: 't1', phase: 'act', when: 'magic', text: 'strict' }, { text: 'fallback' }],
    });
    expect(
      await replyText(model, { taskId: 't1', phase: 'reason' }, [{ role: 'user', content: 'magic' }]),
    ).toBe('fallback');
    expect(await replyText(model, { taskId: 't1', phase: 'act' }, [{ role: 'user', content: 'magic' }])).toBe(
      'strict',
    );
  });

  it('a turn with no task, phase or when matches any call, tagged or not', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'one' }, { text: 'two' }] });
    expect(await replyText(model, { taskId: 'anything', phase: 'plan' })).toBe('one');
    const untagged = await model.doGenerate({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(untagged.content).toEqual([{ type: 'text', text: 'two' }]);
  });

  it('matches when against user, system, assistant and tool-result text', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        { when: 'error TS2322', text: 'saw the tool output' },
        { when: 'SYSTEM-MARK', text: 'saw the system prompt' },
        { when: 'ASSISTANT-MARK', text: 'saw the assistant text' },
        { when: 'USER-MARK', text: 'saw the user text' },
      ],
    });
    const withToolResult: ModelMessage[] = [
      { role: 'user', content: 'build it' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'read_file',
            output: { type: 'text', value: 'src/index.ts(4,7): error TS2322: bad' },
          },
        ],
      },
    ];
    expect(await replyText(model, { phase: 'act' }, withToolResult)).toBe('saw the tool output');
    const withSystem = await callAsAgent(model, { phase: 'act' }, { system: 'You are SYSTEM-MARK.' });
    expect(withSystem.text).toBe('saw the system prompt');
    const withAssistant: ModelMessage[] = [
      { role: 'user', content: 'go on' },
      { role: 'assistant', content: 'I said ASSISTANT-MARK before.' },
      { role: 'user', content: 'and now?' },
    ];
    expect(await replyText(model, { phase: 'act' }, withAssistant)).toBe('saw the assistant text');
    expect(await replyText(model, { phase: 'act' }, [{ role: 'user', content: 'USER-MARK' }])).toBe(
      'saw the user text',
    );
  });

  it('matches when against JSON tool results', async () => {
    const model = ScriptModel.fromScript({ turns: [{ when: '"exit_code":2', text: 'it failed' }] });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'run' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'run_command', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'run_command',
            output: { type: 'json', value: { exit_code: 2 } },
          },
        ],
      },
    ];
    expect(await replyText(model, { phase: 'act' }, messages)).toBe('it failed');
  });

  it('fails with a clear, non-retryable error when no unused turn matches', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'first' }, { task: 't2', text: 'for t2' }] });
    await replyText(model, { taskId: 't1', phase: 'act' });
    const outcome = await callAsAgent(model, { taskId: 't9', phase: 'observe' });
    expect(outcome.error).toBeInstanceOf(ScriptExhaustedError);
    expect((outcome.error as Error).message).toBe(
      'script exhausted: no unused turn matches this call (task t9, phase observe); 1 of 2 turns used',
    );
    expect(isTransientError(outcome.error)).toBe(false);
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(
      'script exhausted: no unused turn matches this call (task none, phase none); 1 of 2 turns used',
    );
  });
});

describe('ScriptModel errors', () => {
  it('fails like an HTTP error: status and message on an APICallError, 429 retryable', async () => {
    const model = ScriptModel.fromScript({
      turns: [{ error: { status: 429, message: 'rate limited', retryAfter: 3 } }, { text: 'after the wait' }],
    });
    const outcome = await callAsAgent(model, { phase: 'act' });
    expect(APICallError.isInstance(outcome.error)).toBe(true);
    const error = outcome.error as APICallError;
    expect(error.statusCode).toBe(429);
    expect(error.message).toBe('rate limited');
    expect(error.isRetryable).toBe(true);
    expect(error.responseHeaders?.['retry-after']).toBe('3');
    expect(isTransientError(error)).toBe(true);
    expect(await replyText(model, { phase: 'act' })).toBe('after the wait');
  });

  it('makes 4xx errors other than 408, 409 and 429 non-retryable, 5xx retryable', async () => {
    const model = ScriptModel.fromScript({
      turns: [
        { error: { status: 401, message: 'invalid api key' } },
        { error: { status: 503, message: 'overloaded' } },
      ],
    });
    const unauthorized = model.doStream(callOptions({ phase: 'act' }));
    await expect(unauthorized).rejects.toMatchObject({
      statusCode: 401,
      isRetryable: false,
      message: 'invalid api key',
    });
    const overloaded = model.doStream(callOptions({ phase: 'act' }));
    await expect(overloaded).rejects.toMatchObject({ statusCode: 503, isRetryable: true });
  });
});

describe('ScriptModel latency', () => {
  it('delays the reply by the file default, and a turn latency overrides it', async () => {
    const model = ScriptModel.fromScript({
      latencyMs: 150,
      turns: [{ text: 'slow' }, { text: 'fast', latencyMs: 0 }],
    });
    let started = performance.now();
    expect(await replyText(model, { phase: 'act' })).toBe('slow');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    started = performance.now();
    expect(await replyText(model, { phase: 'act' })).toBe('fast');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('rejects promptly with an AbortError when aborted during the latency, leaving the turn unused', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'too late', latencyMs: 10_000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await expect(model.doStream(callOptions({ phase: 'act' }, controller.signal))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(model.remainingTurns).toBe(1);
  });

  it('stops a streamText call when its abort signal fires', async () => {
    const model = ScriptModel.fromScript({ turns: [{ text: 'too late', latencyMs: 10_000 }] });
    const started = performance.now();
    const outcome = await callAsAgent(model, { phase: 'act' }, { abortSignal: AbortSignal.timeout(50) });
    expect(outcome.text).toBe('');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('loadScriptModel', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-script-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function scriptFile(content: string): Promise<string> {
    const file = path.join(folder, 'script.json');
    await writeFile(file, content);
    return file;
  }

  it('loads a valid file; the model id is its path', async () => {
    const script: ModelScriptInput = { turns: [{ text: 'hi' }] };
    const file = await scriptFile(JSON.stringify(script));
    const model = await loadScriptModel(file);
    expect(model).toMatchObject({ specificationVersion: 'v3', provider: 'script', modelId: file });
    expect(await replyText(model, { phase: 'act' })).toBe('hi');
  });

  it('loads the bundled fix-build example', async () => {
    const model = await loadScriptModel(path.resolve(import.meta.dirname, '../../examples/fix-build.json'));
    expect(model.remainingTurns).toBeGreaterThan(1);
  });

  it('reports a missing file', async () => {
    const file = path.join(folder, 'nope.json');
    const error = await loadScriptModel(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('does not exist');
  });

  it('reports invalid JSON', async () => {
    const file = await scriptFile('{ "turns": [ ');
    const error = await loadScriptModel(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as Error).message).toContain(`The script file ${file} is not valid JSON`);
  });

  it.each([
    ['an unknown key', { turns: [{ text: 'a', tool_calls: [] }] }, /turns\[0\].*tool_calls/],
    ['an unknown phase', { turns: [{ phase: 'think', text: 'a' }] }, /turns\[0\]\.phase/],
    [
      'a turn without a reply',
      { turns: [{ task: 't1' }] },
      /turns\[0\].*needs text, toolCalls, object or error/,
    ],
    [
      'a tool call without a name',
      { turns: [{ toolCalls: [{ args: {} }] }] },
      /turns\[0\]\.toolCalls\[0\]\.name/,
    ],
    ['an error without a status', { turns: [{ error: { message: 'x' } }] }, /turns\[0\]\.error\.status/],
    ['no turns', { turns: [] }, /turns/],
    ['turns that are not a list', { turns: 'x' }, /turns/],
  ])('reports %s with where it is', async (_label, script, expected) => {
    const file = await scriptFile(JSON.stringify(script));
    const error = await loadScriptModel(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as Error).message).toContain(`The script file ${file} is not valid`);
    expect((error as Error).message).toMatch(expected);
  });
});
