import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { socketProtocols } from '../../src/events/access-token.js';
import type { ServerEvent } from '../../src/events/registry.js';
import type { Runtime, RuntimeOptions } from '../../src/runtime/runtime.js';
import { type RunningServer, serve } from '../../src/server/serve.js';
import type { SocketLimits } from '../../src/server/socket/connection.js';
import { ASK_ALL, openRuntime } from '../runtime/helpers.js';

const servers: RunningServer[] = [];
const clients: TestClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const server of servers.splice(0)) await server.close();
});

/** A served runtime on 127.0.0.1 (a free port) with a script model; closed after the test. */
export interface TestServer {
  runtime: Runtime;
  server: RunningServer;
  /** `http://127.0.0.1:PORT` */
  base: string;
  token: string;
}

/** Serves a fresh temp workspace whose model plays `turns`; every request is asked of clients. */
export async function startServer(
  turns: unknown[],
  options: Partial<RuntimeOptions> & { socket?: Partial<SocketLimits> } = {},
): Promise<TestServer> {
  const { socket, ...runtimeOptions } = options;
  const script = turns.length > 0 ? turns : [{ text: 'Nothing to do.' }];
  const runtime = await openRuntime(script, { policy: ASK_ALL, ...runtimeOptions });
  const server = await serve({ runtime, host: '127.0.0.1', port: 0, socket });
  servers.push(server);
  return { runtime, server, base: `http://127.0.0.1:${server.port}`, token: server.token };
}

/** One REST call with the token (unless `token: null`); the status and the parsed body. */
export async function api(
  target: TestServer,
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions that read them
): Promise<{ status: number; body: any; headers: Headers }> {
  const token = options.token === undefined ? target.token : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${target.base}${path}`, {
    method,
    headers,
    redirect: 'manual',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, body, headers: response.headers };
}

/** A WebSocket client that records every message and waits for the ones a test expects. */
export class TestClient {
  readonly messages: ServerEvent[] = [];
  private waiters: { match: (message: ServerEvent) => boolean; resolve: (message: ServerEvent) => void }[] =
    [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerEvent;
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (!waiter.match(message)) continue;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  /** Opens `/ws` with the token as a subprotocol value, as the web UI does (unless `token: null`). */
  static open(
    target: TestServer,
    options: { token?: string | null; headers?: Record<string, string>; autoPong?: boolean } = {},
  ): Promise<TestClient> {
    const token = options.token === undefined ? target.token : options.token;
    const socket = new WebSocket(
      `ws://127.0.0.1:${target.server.port}/ws`,
      token === null ? [] : socketProtocols(token),
      { headers: options.headers, autoPong: options.autoPong ?? true },
    );
    const client = new TestClient(socket);
    clients.push(client);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (request, response) => {
        response.resume();
        request.destroy();
        reject(new Error(`upgrade refused: ${response.statusCode}`));
      });
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message (received so far or later) that matches. */
  next<T extends ServerEvent = ServerEvent>(
    match: (message: ServerEvent) => boolean,
    options: { timeoutMs?: number; after?: number } = {},
  ): Promise<T> {
    const seen = this.messages.slice(options.after ?? 0).find(match);
    if (seen) return Promise.resolve(seen as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching message; got ${this.messages.map(describeMessage).join(', ')}`)),
        // Only says a hang: a loaded machine (two busy loops beside the suite) can take tens of seconds.
        options.timeoutMs ?? 60_000,
      );
      this.waiters.push({
        match,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message as T);
        },
      });
    });
  }

  /** The kinds of the messages of one session, in arrival order. */
  kinds(sessionId?: string): string[] {
    return this.messages
      .filter((message) => sessionId === undefined || message.session_id === sessionId)
      .map(kindOf);
  }

  close(): void {
    this.socket.close();
  }
}

/** The update type of an agent_update, or the top-level type. */
export function kindOf(message: ServerEvent): string {
  return message.type === 'agent_update' ? message.update_type : message.type;
}

/** A message's kind, with the code and text of an error (a timeout then says what went wrong). */
function describeMessage(message: ServerEvent): string {
  return message.type === 'error' ? `error ${message.code}: ${message.message}` : kindOf(message);
}

/** Matches a message by kind (update type or top-level type). */
export function is(kind: string): (message: ServerEvent) => boolean {
  return (message) => kindOf(message) === kind;
}
