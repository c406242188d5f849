import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { withoutTaskweaveSecrets } from '../../util/command-environment.js';
import { WRAPPER_INPUT_FD } from '../process/run-shell-command.js';
import { type CommandSandbox, sandboxLaunch } from '../sandbox/sandbox.js';

/** A diagnostic as the protocol sends it (0-based positions). */
export interface ProtocolDiagnostic {
  range: { start: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
}

/** How long a server that has stopped answering gets to shut down before it is killed. */
const SHUTDOWN_GRACE_MS = 1000;
/**
 * While a file's problems have not come, it is sent again after this long, then twice as long each
 * time: typescript-language-server drops the check it asks for on an open while the project is
 * still loading, and asks again only on a change (which also cancels a check under way, hence the
 * growing gaps).
 */
const FIRST_RESEND_MS = 1000;

/**
 * One running language server: its process (in the sandbox when the run has one, never with
 * network) and the JSON-RPC connection over its stdio. Keeps what it last published per file
 * and counts the publications, so that a caller can wait for the ones after a change.
 */
export class ServerConnection {
  private readonly published = new Map<string, { diagnostics: ProtocolDiagnostic[]; count: number }>();
  private readonly listeners = new Set<(uri: string) => void>();
  private readonly versions = new Map<string, { version: number; text: string }>();
  private closing = false;
  /** Settles when the process is gone; `crashed` when it went without being closed. */
  readonly exited: Promise<{ crashed: boolean; reason: string }>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    readonly root: string,
  ) {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => resolve({ crashed: !this.closing, reason: error.message }));
      child.once('exit', (code, signal) =>
        resolve({
          crashed: !this.closing,
          reason: `${signal ? `killed by ${signal}` : `exit code ${code}`}${stderr.trim() ? `: ${lastLine(stderr)}` : ''}`,
        }),
      );
    });
    connection.onNotification(
      'textDocument/publishDiagnostics',
      (params: { uri: string; diagnostics: ProtocolDiagnostic[] }) => {
        const count = (this.published.get(params.uri)?.count ?? 0) + 1;
        this.published.set(params.uri, { diagnostics: params.diagnostics, count });
        for (const listener of this.listeners) listener(params.uri);
      },
    );
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) =>
      (params.items ?? []).map(() => null),
    );
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('workspace/workspaceFolders', () => [
      { name: 'workspace', uri: pathToFileURL(root).href },
    ]);
    // A connection error is the process dying; `exited` says so.
    connection.onError(() => {});
    connection.listen();
  }

  /**
   * Starts the server for `root` and sends `initialize`; resolves once it answered. `signal`
   * ends a start that takes too long (the process is killed).
   */
  static async start(options: {
    program: string;
    args: string[];
    initializationOptions?: Record<string, unknown>;
    root: string;
    workspaceRoot: string;
    sandbox: CommandSandbox;
    env: NodeJS.ProcessEnv;
    signal: AbortSignal;
  }): Promise<ServerConnection> {
    const env = withoutTaskweaveSecrets(options.env);
    const { sandbox } = options;
    let child: ChildProcess;
    if (sandbox.kind === 'bwrap') {
      // Never with network, whatever commands may do: a language server has no need of it.
      const launch = sandboxLaunch({
        sandbox: { ...sandbox, network: false },
        workspaceRoot: options.workspaceRoot,
        cwd: options.root,
        env,
      });
      child = spawn(sandbox.bwrap, [...launch.args, '--', options.program, ...options.args], {
        env: launch.env,
        stdio: ['pipe', 'pipe', 'pipe', ...(launch.input === undefined ? [] : (['pipe'] as const))],
        detached: true,
      });
      const input = child.stdio[WRAPPER_INPUT_FD];
      if (launch.input !== undefined && input && 'end' in input) {
        input.on('error', () => {});
        input.end(launch.input);
      }
    } else {
      child = spawn(options.program, options.args, { cwd: options.root, env, stdio: 'pipe', detached: true });
    }
    if (!child.stdout || !child.stdin) throw new Error('the language server has no stdio');
    child.stdin.on('error', () => {});
    // Loaded with the first server: a run that edits no source file loads none of it.
    const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import(
      'vscode-jsonrpc/node'
    );
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const server = new ServerConnection(child, connection, options.root);
    const rootUri = pathToFileURL(options.root).href;
    const initialize = connection.sendRequest('initialize', {
      // In the sandbox's PID namespace taskweave's pid is no process: a server watching it would
      // exit at once (bubblewrap's --die-with-parent ends it with taskweave instead).
      processId: sandbox.kind === 'bwrap' ? null : process.pid,
      rootUri,
      workspaceFolders: [{ name: 'workspace', uri: rootUri }],
      initializationOptions: options.initializationOptions ?? {},
      capabilities: {
        textDocument: {
          synchronization: { didOpen: true, didChange: true },
          publishDiagnostics: { versionSupport: false },
          definition: { linkSupport: false },
          references: {},
          hover: { contentFormat: ['plaintext', 'markdown'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
        window: { workDoneProgress: true },
        workspace: {
          configuration: true,
          workspaceFolders: true,
          // The TypeScript server then leaves watching to the client instead of walking node_modules.
          didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
        },
      },
    });
    try {
      await raceWith(initialize, server.exited, options.signal);
    } catch (error) {
      server.kill();
      throw error;
    }
    await connection.sendNotification('initialized', {});
    return server;
  }

  /** The server's process id (bubblewrap's when it runs in the sandbox). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the file is open in the server. */
  isOpen(file: string): boolean {
    return this.versions.has(uriOf(file));
  }

  /** The text the server has of a file, when it is open. */
  textOf(file: string): string | undefined {
    return this.versions.get(uriOf(file))?.text;
  }

  /**
   * Tells the server a file's whole text: opens it, or sends the change. With `reopen`, a change
   * is sent as a close and an open: a server that publishes only what changed (typescript-language-
   * server says nothing when a clean file stays clean) then publishes the file anew.
   */
  async sync(
    file: string,
    text: string,
    languageId: string,
    options: { reopen?: boolean } = {},
  ): Promise<void> {
    const uri = uriOf(file);
    const open = this.versions.get(uri);
    if (open !== undefined && open.text !== text && options.reopen) {
      const version = open.version + 1;
      this.versions.set(uri, { version, text });
      await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version, text },
      });
      return;
    }
    if (open === undefined) {
      this.versions.set(uri, { version: 1, text });
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
      return;
    }
    if (open.text === text) return;
    const version = open.version + 1;
    this.versions.set(uri, { version, text });
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /** Sends a file's text again as a change (a new version, the same text): the server checks it again. */
  private async resend(file: string): Promise<void> {
    const uri = uriOf(file);
    const open = this.versions.get(uri);
    if (open === undefined || this.closing) return;
    const version = open.version + 1;
    this.versions.set(uri, { version, text: open.text });
    await this.connection
      .sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text: open.text }],
      })
      .catch(() => {});
  }

  /** How many times the server published diagnostics for a file so far. */
  publications(file: string): number {
    return this.published.get(uriOf(file))?.count ?? 0;
  }

  /** What the server last published for a file; undefined when it never has. */
  diagnostics(file: string): ProtocolDiagnostic[] | undefined {
    return this.published.get(uriOf(file))?.diagnostics;
  }

  /** The open files, as paths. */
  openFiles(): string[] {
    return [...this.versions.keys()].map((uri) => new URL(uri).pathname).map(decodeURIComponent);
  }

  /**
   * Waits until every file of `after` (file → publications seen before) has a publication past
   * that count and none came for `quietMs` (a server publishes syntax and semantic problems
   * apart), or until `deadline`. True when they all came in time.
   */
  waitForPublications(
    after: Map<string, number>,
    options: { deadline: number; quietMs: number; staleMs?: number },
  ): Promise<boolean> {
    // A publication this soon after the change is of the text before it (see LanguageServerSpec.staleMs).
    const freshFrom = Date.now() + (options.staleMs ?? 0);
    const pending = new Set(
      [...after.keys()].filter((file) => this.publications(file) <= (after.get(file) ?? 0)),
    );
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = (complete: boolean) => {
        clearTimeout(quiet);
        clearTimeout(limit);
        clearTimeout(resend);
        this.listeners.delete(listener);
        resolve(complete);
      };
      const settle = () => {
        clearTimeout(quiet);
        if (pending.size === 0) quiet = setTimeout(() => finish(true), options.quietMs);
      };
      const listener = (uri: string) => {
        if (Date.now() < freshFrom) return;
        for (const file of pending) if (uriOf(file) === uri) pending.delete(file);
        settle();
      };
      const limit = setTimeout(() => finish(false), Math.max(0, options.deadline - Date.now()));
      let resend: NodeJS.Timeout | undefined;
      const scheduleResend = (delay: number) => {
        resend = setTimeout(() => {
          for (const file of pending) void this.resend(file);
          scheduleResend(delay * 2);
        }, delay);
      };
      scheduleResend(FIRST_RESEND_MS);
      this.listeners.add(listener);
      void this.exited.then(() => finish(false));
      settle();
    });
  }

  /** Sends a request; rejects at `deadline` or when the server goes. */
  request<T>(method: string, params: unknown, deadline: number): Promise<T> {
    const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    return raceWith(this.connection.sendRequest<T>(method, params), this.exited, timeout);
  }

  /** Asks the server to shut down, and kills it when it does not in time. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    try {
      await this.request('shutdown', null, deadline);
      await this.connection.sendNotification('exit');
    } catch {
      // It did not answer: it is killed below.
    }
    const gone = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())).unref(),
      ),
    ]);
    if (!gone) this.kill();
    this.connection.dispose();
  }

  /** Kills the server's process group at once. */
  kill(): void {
    this.closing = true;
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The file URI of an absolute path. */
export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
}

/** `work`, unless the server exits or `signal` fires first (then a rejection saying which). */
function raceWith<T>(work: Promise<T>, exited: Promise<{ reason: string }>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ServerTimeout());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject);
    exited.then(({ reason }) => reject(new Error(`the server exited (${reason})`)));
  });
}

/** The server did not answer in time. */
export class ServerTimeout extends Error {
  constructor() {
    super('the server did not answer in time');
  }
}
