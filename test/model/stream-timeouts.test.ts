import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/config/resolve-model.js';
import { callModel } from '../../src/model/call-model.js';
import { DEFAULT_MAX_ATTEMPTS, RETRY_BASE_ENV } from '../../src/model/retry.js';
import type { ModelStreamTimeoutError } from '../../src/model/stream-timeouts.js';
import type { ResolvedModel } from '../../src/model/types.js';
import { type LlmServer, startLlmServer } from '../helpers/llm-server.js';
import { streamPartsFor } from '../helpers/mock-model.js';
import { runWithHarness, tempWorkspaceRoot } from '../helpers/run-harness.js';

const TIMEOUTS = { firstTokenMs: 150, idleMs: 150 };

/** A stream that sends `parts` and then nothing more, never closing. */
function stallingStream(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
    },
  });
}

/** A mock whose calls stall after the given parts, then (when `thenReply`) reply whole. */
function stallingModel(
  stalls: LanguageModelV3StreamPart[][],
  thenReply?: string,
): ResolvedModel & { mock: MockLanguageModelV3 } {
  let call = 0;
  const mock = new MockLanguageModelV3({
    doStream: async () => {
      const parts = stalls[call++];
      if (parts) return { stream: stallingStream(parts) };
      if (thenReply === undefined) throw new Error('no more replies');
      const whole = streamPartsFor({ text: thenReply });
      return {
        stream: new ReadableStream({
          start: (c) => {
            for (const p of whole) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
  return { id: 'mock:stall', model: mock, mock, timeouts: TIMEOUTS };
}

const tag = { runId: 'r', phase: 'act' as const };
const halfReply: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hel' },
];

let previousBase: string | undefined;
beforeEach(() => {
  previousBase = process.env[RETRY_BASE_ENV];
  process.env[RETRY_BASE_ENV] = '5';
});
afterEach(() => {
  if (previousBase === undefined) delete process.env[RETRY_BASE_ENV];
  else process.env[RETRY_BASE_ENV] = previousBase;
});

describe('stream timeouts (a provider that never answers or stalls mid-stream)', () => {
  it("a stalled first token and a stall mid-stream are retried; the reply is the retry's, whole", async () => {
    const model = stallingModel([[], halfReply], 'Hello.');
    const retries: unknown[] = [];
    const reply = await callModel({
      model,
      system: 's',
      messages: [{ role: 'user', content: 'hi' }],
      tag,
      signal: new AbortController().signal,
      onRetry: ({ error }) => retries.push(error),
    });
    expect(reply.text).toBe('Hello.');
    expect(model.mock.doStreamCalls).toHaveLength(3);
    expect(retries.map((error) => (error as ModelStreamTimeoutError).kind)).toEqual(['first_token', 'idle']);
  });

  it('a run whose model always stalls fails with the reason after the retries, never hangs', async () => {
    const model = stallingModel(Array.from({ length: DEFAULT_MAX_ATTEMPTS }, () => halfReply));
    const { result, events } = await runWithHarness({ model });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/stalled: nothing streamed for 150 ms \(idle-stream timeout\)/);
    expect(
      events.filter((event) => event.type === 'agent_update' && event.update_type === 'agent_retry'),
    ).toHaveLength(DEFAULT_MAX_ATTEMPTS - 1);
  });
});

describe('stream timeouts over real HTTP (OpenAI streaming format)', () => {
  let server: LlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function model(config: Record<string, number>): Promise<ResolvedModel> {
    const root = await tempWorkspaceRoot();
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(`${root}/.taskweave`);
    await writeFile(`${root}/.taskweave/config.json`, JSON.stringify(config));
    return resolveModel({
      model: 'openai-compatible:test-model',
      baseUrl: server!.baseUrl,
      cwd: root,
      env: {},
    });
  }

  it('a server that never answers, then one that stalls mid-stream, are retried (config keys set the timeouts)', async () => {
    server = await startLlmServer();
    server.reply(
      { text: 'x', stall: 'before-headers' },
      { text: 'Half a reply', stall: 2 },
      { text: 'The answer.' },
    );
    const resolved = await model({ firstTokenTimeoutMs: 200, streamIdleTimeoutMs: 200 });
    expect(resolved.timeouts).toEqual({ firstTokenMs: 200, idleMs: 200 });
    const reply = await callModel({
      model: resolved,
      system: 's',
      messages: [{ role: 'user', content: 'hi' }],
      tag,
      signal: new AbortController().signal,
    });
    expect(reply.text).toBe('The answer.');
    expect(server.requests).toHaveLength(3);
  });

  it('a server that always stalls fails the call with the timeout after the retries', async () => {
    server = await startLlmServer();
    server.reply(
      ...Array.from({ length: DEFAULT_MAX_ATTEMPTS }, () => ({
        text: 'x',
        stall: 'before-headers' as const,
      })),
    );
    const resolved = await model({ firstTokenTimeoutMs: 150, streamIdleTimeoutMs: 150 });
    const call = callModel({
      model: resolved,
      system: 's',
      messages: [{ role: 'user', content: 'hi' }],
      tag,
      signal: new AbortController().signal,
    });
    await expect(call).rejects.toThrow(/sent nothing for 150 ms after the request \(first-token timeout\)/);
    expect(server.requests).toHaveLength(DEFAULT_MAX_ATTEMPTS);
  });
});
