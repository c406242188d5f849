import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { CLI_PATH, writeScript } from './cli.js';

/** What the test's editor answers a permission request with (an option id), or undefined: cancelled. */
export type PermissionAnswer = (request: acp.RequestPermissionRequest) => string | undefined;

/**
 * The real `taskweave acp` as an editor runs it: a child process spoken to with the SDK's own
 * client side over its stdio. Every line it writes on stdout is kept (`stdoutLines`) so that a
 * test can check nothing but JSON-RPC went there; updates and permission requests are recorded.
 */
export class AcpProcess {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissions: acp.RequestPermissionRequest[] = [];
  readonly stdoutLines: string[] = [];
  stderr = '';
  answerPermission: PermissionAnswer = (request) => request.options[0]?.optionId;
  readonly connection: acp.ClientConnection;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private partial = '';
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly clientCapabilities: acp.ClientCapabilities = {},
    onElicitation?: (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse,
  ) {
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    const protocol = new PassThrough();
    child.stdout.on('data', (chunk: Buffer) => this.record(chunk.toString()));
    child.stdout.pipe(protocol);
    const app = acp
      .client()
      .onNotification('session/update', ({ params }) => {
        this.updates.push(params);
        this.wake();
      })
      .onRequest('session/request_permission', ({ params }) => {
        this.permissions.push(params);
        this.wake();
        const optionId = this.answerPermission(params);
        return {
          outcome: optionId === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId },
        };
      });
    if (onElicitation) app.onRequest('elicitation/create', ({ params }) => onElicitation(params));
    this.connection = app.connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(protocol) as ReadableStream<Uint8Array>,
      ),
    );
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  initialize(): Promise<acp.InitializeResponse> {
    return this.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: this.clientCapabilities,
    });
  }

  /** The updates of one kind sent for a session. */
  updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(
    sessionId: string,
    kind: K,
  ): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates
      .filter((note) => note.sessionId === sessionId && note.update.sessionUpdate === kind)
      .map((note) => note.update as Extract<acp.SessionUpdate, { sessionUpdate: K }>);
  }

  /** The text of a session's agent message chunks, joined. */
  agentText(sessionId: string): string {
    return this.updatesOf(sessionId, 'agent_message_chunk')
      .map((update) => (update.content.type === 'text' ? update.content.text : ''))
      .join('');
  }

  /** Resolves once `check` holds (checked at each update or permission request). */
  async until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, 200);
        this.waiters.add(wake);
      });
    }
  }

  /** Lines written on stdout that are not JSON-RPC 2.0 messages. */
  nonProtocolLines(): string[] {
    return this.stdoutLines.filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc !== '2.0';
      } catch {
        return true;
      }
    });
  }

  /** Closes stdin (the editor went away) and waits for the process to end. */
  async close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  private record(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    this.stdoutLines.push(...lines.filter((line) => line.trim() !== ''));
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** A temporary workspace with a script model for `taskweave acp`. */
export interface AcpWorkspace {
  workspace: string;
  script: string;
  start(
    args?: string[],
    options?: {
      clientCapabilities?: acp.ClientCapabilities;
      onElicitation?: (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse;
    },
  ): AcpProcess;
  cleanup(): Promise<void>;
}

/** Makes a workspace and writes the script its `taskweave acp` processes run. */
export async function acpWorkspace(turns: unknown[]): Promise<AcpWorkspace> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'taskweave-acp-')));
  const workspace = path.join(root, 'project');
  await mkdir(workspace);
  const script = await writeScript(root, { turns });
  const started: AcpProcess[] = [];
  return {
    workspace,
    script,
    start(args = [], options = {}) {
      const child = spawn(process.execPath, [CLI_PATH, 'acp', '--model', `script:${script}`, ...args], {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1', XDG_CONFIG_HOME: path.join(root, 'config') },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const process_ = new AcpProcess(child, options.clientCapabilities, options.onElicitation);
      started.push(process_);
      return process_;
    },
    async cleanup() {
      for (const process_ of started) if (process_.child.exitCode === null) process_.child.kill('SIGKILL');
      await rm(root, { recursive: true, force: true });
    },
  };
}
