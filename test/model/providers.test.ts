import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APICallError, type LanguageModelV3 } from '@ai-sdk/provider';
import { type ModelMessage, streamText, tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveModel } from '../../src/config/resolve-model.js';
import { withRetry } from '../../src/model/retry.js';
import { type LlmServer, startLlmServer } from '../helpers/llm-server.js';

const tools = {
  write_file: tool({
    description: 'Writes a file in the workspace.',
    inputSchema: z.object({ path: z.string(), content: z.string() }),
  }),
};

interface Turn {
  text: string;
  textDeltas: number;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  inputTokens?: number;
  outputTokens?: number;
  responseMessages: ModelMessage[];
}

/** One streamed call as the agent makes it: tools without execute, the taskweave tag, no SDK retries. */
async function streamTurn(model: LanguageModelV3, messages: ModelMessage[]): Promise<Turn> {
  const result = streamText({
    model,
    system: 'You are a coding agent.',
    messages,
    tools,
    maxRetries: 0,
    providerOptions: { taskweave: { runId: 'run-1', taskId: 't1', phase: 'act' } },
    // Errors are rethrown from the stream below; the default handler would also log them.
    onError: () => {},
  });
  const turn: Turn = { text: '', textDeltas: 0, toolCalls: [], responseMessages: [] };
  for await (const part of result.fullStream) {
    if (part.type === 'error') throw part.error;
    if (part.type === 'text-delta') {
      turn.text += part.text;
      turn.textDeltas++;
    }
    if (part.type === 'tool-call') {
      turn.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    }
    if (part.type === 'finish') {
      turn.inputTokens = part.totalUsage.inputTokens;
      turn.outputTokens = part.totalUsage.outputTokens;
    }
  }
  turn.responseMessages = (await result.response).messages;
  return turn;
}

/** A write_file call, then the final answer once the tool result is back. */
async function toolRoundTrip(model: LanguageModelV3): Promise<{ first: Turn; second: Turn }> {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Create a.txt containing x.' }];
  const first = await streamTurn(model, messages);
  const call = first.toolCalls[0];
  if (call === undefined) throw new Error('the model made no tool call');
  messages.push(...first.responseMessages, {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'text', value: 'wrote a.txt (1 byte)' },
      },
    ],
  });
  const second = await streamTurn(model, messages);
  return { first, second };
}

let server: LlmServer;
let cwd: string;

beforeEach(async () => {
  server = await startLlmServer();
  cwd = await mkdtemp(path.join(tmpdir(), 'taskweave-providers-'));
});
afterEach(async () => {
  await server.close();
  await rm(cwd, { recursive: true, force: true });
});

describe('openai-compatible provider against a local server', () => {
  it('streams a tool call with parsed input, sends the tool result back and gets the final text', async () => {
    const { model } = await resolveModel({
      model: 'openai-compatible:local-model',
      cwd,
      env: { HOME: cwd, TASKWEAVE_BASE_URL: server.baseUrl, OPENAI_COMPATIBLE_API_KEY: 'local-key' },
    });
    server.reply(
      {
        text: 'I will create the file.',
        toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }],
        usage: { inputTokens: 42, outputTokens: 7 },
      },
      { text: 'Created a.txt with the content x.' },
    );

    const { first, second } = await toolRoundTrip(model);

    expect(first.text).toBe('I will create the file.');
    expect(first.textDeltas).toBeGreaterThan(1);
    expect(first.toolCalls).toEqual([
      { toolCallId: 'call_1', toolName: 'write_file', input: { path: 'a.txt', content: 'x' } },
    ]);
    expect(first).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    expect(second.text).toBe('Created a.txt with the content x.');
    expect(second.toolCalls).toEqual([]);

    expect(server.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer local-key');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'local-model',
      stream: true,
      tools: [{ type: 'function', function: { name: 'write_file', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Create a.txt containing x.' },
      ],
    });
    expect(server.requests[1]?.body).toMatchObject({
      messages: expect.arrayContaining([
        expect.objectContaining({
          role: 'assistant',
          tool_calls: [
            expect.objectContaining({
              id: 'call_1',
              function: expect.objectContaining({ name: 'write_file' }),
            }),
          ],
        }),
        { role: 'tool', tool_call_id: 'call_1', content: 'wrote a.txt (1 byte)' },
      ]),
    });
  });

  it('surfaces an HTTP error with the provider message and status', async () => {
    const { model } = await resolveModel({
      model: 'openai-compatible:m',
      baseUrl: server.baseUrl,
      cwd,
      env: { HOME: cwd },
    });
    server.reply({ error: { status: 401, message: 'Invalid API key provided' } });
    const error = await streamTurn(model, [{ role: 'user', content: 'hi' }]).catch(
      (thrown: unknown) => thrown,
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    expect((error as Error).message).toContain('Invalid API key provided');
  });
});

describe('anthropic provider against a local server', () => {
  it('streams a tool call with parsed input, sends the tool result back and gets the final text', async () => {
    const { model } = await resolveModel({
      model: 'anthropic:claude-sonnet-4-5',
      baseUrl: server.baseUrl,
      cwd,
      env: { HOME: cwd, ANTHROPIC_API_KEY: 'dummy-key' },
    });
    server.reply(
      {
        text: 'Creating the file.',
        toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x' } }],
        usage: { inputTokens: 30, outputTokens: 9 },
      },
      { text: 'Done: a.txt holds x.' },
    );

    const { first, second } = await toolRoundTrip(model);

    expect(first.text).toBe('Creating the file.');
    expect(first.textDeltas).toBeGreaterThan(1);
    expect(first.toolCalls).toEqual([
      { toolCallId: 'toolu_1', toolName: 'write_file', input: { path: 'a.txt', content: 'x' } },
    ]);
    expect(first).toMatchObject({ inputTokens: 30, outputTokens: 9 });
    expect(second.text).toBe('Done: a.txt holds x.');

    expect(server.requests.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(server.requests[0]?.headers['x-api-key']).toBe('dummy-key');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      system: [{ type: 'text', text: 'You are a coding agent.' }],
      tools: [{ name: 'write_file', input_schema: { type: 'object' } }],
    });
    expect(server.requests[1]?.body).toMatchObject({
      messages: [
        { role: 'user' },
        {
          role: 'assistant',
          content: expect.arrayContaining([
            expect.objectContaining({
              type: 'tool_use',
              id: 'toolu_1',
              input: { path: 'a.txt', content: 'x' },
            }),
          ]),
        },
        {
          role: 'user',
          content: [
            expect.objectContaining({
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: 'wrote a.txt (1 byte)',
            }),
          ],
        },
      ],
    });
  });
});

describe('other providers reach the configured server', () => {
  it('ollama: OLLAMA_HOST without scheme or path gets http:// and /v1', async () => {
    const host = server.url.replace('http://', '');
    const { model } = await resolveModel({
      model: 'ollama:qwen2.5-coder:7b',
      cwd,
      env: { HOME: cwd, OLLAMA_HOST: host },
    });
    server.reply({ text: 'Hello from Ollama.' });
    const turn = await streamTurn(model, [{ role: 'user', content: 'hi' }]);
    expect(turn.text).toBe('Hello from Ollama.');
    expect(server.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: 'qwen2.5-coder:7b' },
    });
  });

  it('openai: OPENAI_BASE_URL from the given env is used, with the key as bearer token', async () => {
    const { model } = await resolveModel({
      model: 'openai:gpt-4.1',
      cwd,
      env: { HOME: cwd, OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseUrl },
    });
    // The server does not speak the Responses API; the request reaching it is what is checked.
    await streamTurn(model, [{ role: 'user', content: 'hi' }]).catch(() => undefined);
    expect(server.requests[0]).toMatchObject({ path: '/v1/responses', body: { model: 'gpt-4.1' } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-local');
  });
});

describe('retrying provider errors', () => {
  it('retries a 429 with Retry-After after the delay the server asked for, then succeeds', async () => {
    const { model } = await resolveModel({
      model: 'openai-compatible:m',
      baseUrl: server.baseUrl,
      cwd,
      env: { HOME: cwd },
    });
    server.reply(
      { error: { status: 429, message: 'Rate limit reached', retryAfter: 1 } },
      { text: 'Finally.' },
    );
    const retries: { attempt: number; delayMs: number; error: unknown }[] = [];
    const started = performance.now();
    // A base delay far above Retry-After: only the header explains a retry after about a second.
    const turn = await withRetry(() => streamTurn(model, [{ role: 'user', content: 'hi' }]), {
      baseDelayMs: 20_000,
      maxDelayMs: 30_000,
      onRetry: (info) => retries.push(info),
    });
    const elapsed = performance.now() - started;
    expect(turn.text).toBe('Finally.');
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 1000, error: { statusCode: 429 } });
    expect(retries[0]?.error).toMatchObject({ message: expect.stringContaining('Rate limit reached') });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('anthropic: a 529 overloaded error is retried as well', async () => {
    const { model } = await resolveModel({
      model: 'anthropic:claude-sonnet-4-5',
      baseUrl: server.baseUrl,
      cwd,
      env: { HOME: cwd, ANTHROPIC_API_KEY: 'dummy-key' },
    });
    server.reply({ error: { status: 529, message: 'Overloaded' } }, { text: 'Back.' });
    const turn = await withRetry(() => streamTurn(model, [{ role: 'user', content: 'hi' }]), {
      baseDelayMs: 1,
    });
    expect(turn.text).toBe('Back.');
    expect(server.requests).toHaveLength(2);
  });
});

describe('a workspace config baseUrl and API keys from the environment', () => {
  let keyServer: LlmServer | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await keyServer?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('does not send an environment key for a model chosen elsewhere to the server the config names', async () => {
    keyServer = await startLlmServer();
    keyServer.reply({ text: 'stolen' });
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-keys-'));
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(folder, '.taskweave'));
    await writeFile(
      path.join(folder, '.taskweave/config.json'),
      JSON.stringify({ baseUrl: keyServer.baseUrl }),
    );
    const env = {
      HOME: folder,
      XDG_CONFIG_HOME: path.join(folder, 'xdg'),
      ANTHROPIC_API_KEY: 'sk-ant-secret',
    };
    const resolved = await resolveModel({ cwd: folder, env });
    expect(resolved).toMatchObject({ id: 'anthropic:claude-sonnet-4-5', source: 'api-key' });
    const result = streamText({
      model: resolved.model,
      prompt: 'hi',
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(500),
      onError: () => {},
    });
    for await (const _part of result.fullStream) {
      // The call goes to Anthropic's own address (unreachable here) and ends with the timeout.
    }
    expect(keyServer.requests).toHaveLength(0);
  });

  it('with merged config files, a project baseUrl does not carry the key of a model the user file chose', async () => {
    keyServer = await startLlmServer();
    keyServer.reply({ text: 'stolen' });
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-keys-'));
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(folder, '.taskweave'));
    await mkdir(path.join(folder, 'xdg', 'taskweave'), { recursive: true });
    await writeFile(
      path.join(folder, '.taskweave/config.json'),
      JSON.stringify({ baseUrl: keyServer.baseUrl }),
    );
    await writeFile(
      path.join(folder, 'xdg/taskweave/config.json'),
      JSON.stringify({ model: 'anthropic:claude-sonnet-4-5' }),
    );
    const env = {
      HOME: folder,
      XDG_CONFIG_HOME: path.join(folder, 'xdg'),
      ANTHROPIC_API_KEY: 'sk-ant-secret',
    };
    const resolved = await resolveModel({ cwd: folder, env });
    expect(resolved).toMatchObject({ id: 'anthropic:claude-sonnet-4-5', source: 'config' });
    const result = streamText({
      model: resolved.model,
      prompt: 'hi',
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(500),
      onError: () => {},
    });
    for await (const _part of result.fullStream) {
      // As above: Anthropic's own address, unreachable here.
    }
    expect(keyServer.requests).toHaveLength(0);
  });
});
