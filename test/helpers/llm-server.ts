import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that plays an LLM provider, for tests of the real provider path (the AI
 * SDK's OpenAI-compatible and Anthropic clients, real fetch, real SSE parsing). You queue the
 * replies; each request takes the next one and is answered in the wire format its path asks for:
 *
 * - `POST …/chat/completions`: OpenAI Chat Completions (`chat.completion.chunk` SSE lines with
 *   `delta.content` and `delta.tool_calls` spread over several chunks, a usage chunk, `[DONE]`),
 * - `POST …/messages`: Anthropic Messages (message_start, content_block_start/delta/stop with
 *   text_delta and input_json_delta, message_delta with stop_reason and usage, message_stop).
 *
 * A request with `"stream": false` (or no `stream`) gets the matching non-streamed JSON body.
 * Every request is recorded with its parsed JSON body, so a test can check what the provider
 * sent. A request that finds the queue empty gets a 400 whose message says so (400, not 5xx,
 * so that no client retries it).
 *
 * ```ts
 * const server = await startLlmServer();
 * server.reply({ toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'Done.' });
 * const provider = createOpenAICompatible({ name: 'test', baseURL: server.baseUrl });
 * // … run the model …
 * expect(server.requests[1]?.body).toMatchObject({ messages: expect.arrayContaining([…]) });
 * await server.close();
 * ```
 */
export async function startLlmServer(): Promise<LlmServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const counters = { message: 0, toolCall: 0 };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `llm-server failed: ${String(error)}` } }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const body = parseJson(raw);
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    const format = formatFor(request.method, path);
    if (format === undefined) {
      sendJson(response, 404, { error: { message: `llm-server: no route for ${request.method} ${path}` } });
      return;
    }
    const reply = queue.shift();
    if (reply === undefined) {
      const message = `llm-server: no scripted reply queued for request ${requests.length} (${request.method} ${path})`;
      sendError(response, format, { status: 400, message });
      return;
    }
    if ('error' in reply) {
      sendError(response, format, reply.error);
      return;
    }
    // A provider that never answers: the request is read and then nothing, not even headers.
    if (reply.stall === 'before-headers') return;
    const ids = { message: `msg_${++counters.message}`, toolCalls: [] as string[] };
    for (const call of reply.toolCalls ?? []) {
      ids.toolCalls.push(call.id ?? `${format === 'openai' ? 'call' : 'toolu'}_${++counters.toolCall}`);
    }
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'test-model';
    const context: ReplyContext = { reply, ids, model, usage: reply.usage ?? DEFAULT_USAGE };
    const streamed = isRecord(body) && body.stream === true;
    if (!streamed) {
      sendJson(response, 200, format === 'openai' ? openAiCompletion(context) : anthropicMessage(context));
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const all = format === 'openai' ? openAiChunks(context) : anthropicEvents(context);
    // A stream that stalls: the first events, then silence with the connection left open.
    const events = typeof reply.stall === 'number' ? all.slice(0, reply.stall) : all;
    for (const event of events) {
      if (response.destroyed) return;
      response.write(event);
      if (reply.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.chunkDelayMs));
    }
    if (typeof reply.stall !== 'number') response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    reply(...replies) {
      queue.push(...replies);
    },
    get pendingReplies() {
      return queue.length;
    },
    close() {
      return new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

/** A running server; see startLlmServer. */
export interface LlmServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `<url>/v1`: the base URL the OpenAI-compatible and Anthropic providers take. */
  baseUrl: string;
  /** Every request so far, in order, with its parsed JSON body. */
  requests: RecordedRequest[];
  /** Queues replies; each request takes the next one. */
  reply(...replies: ScriptedReply[]): void;
  /** How many queued replies no request has taken yet. */
  readonly pendingReplies: number;
  close(): Promise<void>;
}

/** A tool call in a scripted reply; `id` is generated (`call_N` / `toolu_N`) when absent. */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** What the server answers one request with: a model reply, or an HTTP error. */
export type ScriptedReply =
  | {
      text?: string;
      toolCalls?: ScriptedToolCall[];
      /** Reported token usage; default 10 in, 5 out. */
      usage?: { inputTokens: number; outputTokens: number };
      /** Pause between streamed events, to test stopping mid-stream. */
      chunkDelayMs?: number;
      /**
       * The provider stalls: `before-headers` never answers the request; a number sends that many
       * streamed events and then nothing more, the connection left open (until close()).
       */
      stall?: 'before-headers' | number;
    }
  | {
      /** `retryAfter` (seconds, or an HTTP date) is sent as the Retry-After header. */
      error: { status: number; message?: string; retryAfter?: number | string };
    };

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

type WireFormat = 'openai' | 'anthropic';
type ModelReplyScript = Exclude<ScriptedReply, { error: unknown }>;

interface ReplyContext {
  reply: ModelReplyScript;
  ids: { message: string; toolCalls: string[] };
  model: string;
  usage: { inputTokens: number; outputTokens: number };
}

const DEFAULT_USAGE = { inputTokens: 10, outputTokens: 5 };
/** Tool arguments are streamed in this many pieces, so that clients must join them. */
const ARGUMENT_PIECES = 3;

function formatFor(method: string | undefined, path: string): WireFormat | undefined {
  if (method !== 'POST') return undefined;
  if (path.endsWith('/chat/completions')) return 'openai';
  if (path.endsWith('/messages')) return 'anthropic';
  return undefined;
}

function openAiChunks({ reply, ids, model, usage }: ReplyContext): string[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sse({ id: ids.message, object: 'chat.completion.chunk', created, model, choices, ...extra });
  const delta = (content: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: content, finish_reason: finishReason }]);

  const events = [delta({ role: 'assistant', content: '' })];
  for (const piece of wordChunks(reply.text ?? '')) events.push(delta({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const id = ids.toolCalls[index];
    events.push(
      delta({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitInPieces(JSON.stringify(call.args), ARGUMENT_PIECES)) {
      events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(delta({}, reply.toolCalls?.length ? 'tool_calls' : 'stop'));
  events.push(chunk([], { usage: openAiUsage(usage) }));
  events.push('data: [DONE]\n\n');
  return events;
}

function openAiCompletion({ reply, ids, model, usage }: ReplyContext): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: ids.toolCalls[index],
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.args) },
  }));
  return {
    id: ids.message,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: openAiUsage(usage),
  };
}

function openAiUsage(usage: ReplyContext['usage']) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function anthropicEvents({ reply, ids, model, usage }: ReplyContext): string[] {
  const event = (data: { type: string } & Record<string, unknown>) =>
    `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
  const events = [
    event({
      type: 'message_start',
      message: {
        id: ids.message,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (reply.text) {
    events.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const piece of wordChunks(reply.text)) {
      events.push(event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
    }
    events.push(event({ type: 'content_block_stop', index }));
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, callIndex) => {
    const contentBlock = { type: 'tool_use', id: ids.toolCalls[callIndex], name: call.name, input: {} };
    events.push(event({ type: 'content_block_start', index, content_block: contentBlock }));
    for (const piece of splitInPieces(JSON.stringify(call.args), ARGUMENT_PIECES)) {
      events.push(
        event({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    }
    events.push(event({ type: 'content_block_stop', index }));
    index++;
  });
  events.push(
    event({
      type: 'message_delta',
      delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
  );
  events.push(event({ type: 'message_stop' }));
  return events;
}

function anthropicMessage({ reply, ids, model, usage }: ReplyContext): unknown {
  const content: unknown[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  (reply.toolCalls ?? []).forEach((call, index) => {
    content.push({ type: 'tool_use', id: ids.toolCalls[index], name: call.name, input: call.args });
  });
  return {
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

function sendError(
  response: ServerResponse,
  format: WireFormat,
  error: { status: number; message?: string; retryAfter?: number | string },
): void {
  const message = error.message ?? `HTTP ${error.status}`;
  const type =
    error.status === 429 ? 'rate_limit_error' : error.status >= 500 ? 'api_error' : 'invalid_request_error';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
  const body =
    format === 'openai'
      ? { error: { message, type, code: null } }
      : { type: 'error', error: { type, message } };
  response.writeHead(error.status, headers);
  response.end(JSON.stringify(body));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Word-sized pieces (each word with the space after it) that join back to `text`. */
function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function splitInPieces(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
