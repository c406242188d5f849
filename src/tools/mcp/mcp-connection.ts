import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { limitedFetch } from './limited-fetch.js';
import type { McpServerConfig } from './mcp-config.js';
import { ListingBudget, MAX_MCP_MESSAGE_BYTES, megabytes } from './mcp-listing-limits.js';

/** How much of a stdio server's stderr is kept, to explain why it stopped. */
const STDERR_TAIL_CHARS = 2_000;
/** How long the end of an HTTP server's session (its DELETE) may hold up the end of a run. */
const SESSION_END_TIMEOUT_MS = 2_000;

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/**
 * One running MCP server, through the official SDK's client. It records when it stops by itself
 * (a crash, a closed connection) so that its tools can say so instead of failing obscurely.
 */
export class McpConnection {
  private stoppedBecause: string | undefined;
  private closing = false;
  private stderrTail = '';
  /** Aborted (with the reason) when the server broke the protocol: its listing ends at once. */
  private readonly broken = new AbortController();

  private constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly stdio: StdioClientTransport | undefined,
    /** A server reached over HTTP: its URL and transport. */
    private readonly http: { url: string; transport: StreamableHTTPClientTransport } | undefined,
  ) {}

  /** The stdio server's process id, while it runs. */
  get pid(): number | undefined {
    return this.stdio?.pid ?? undefined;
  }

  /** Starts (stdio) or reaches (HTTP) a server and completes the MCP handshake; throws when it cannot. */
  static async connect(options: {
    name: string;
    config: McpServerConfig;
    workspaceRoot: string;
    signal: AbortSignal;
  }): Promise<McpConnection> {
    const { config } = options;
    const client = new Client({ name: 'taskweave', version: '0.1.0' });
    let transport: Transport;
    let stdio: StdioClientTransport | undefined;
    let http: { url: string; transport: StreamableHTTPClientTransport } | undefined;
    let connection: McpConnection | undefined;
    if ('url' in config) {
      const httpTransport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers ? { headers: config.headers } : undefined,
        fetch: limitedFetch(MAX_MCP_MESSAGE_BYTES, (error) => connection?.stopForSize(error.message)),
      });
      http = { url: config.url, transport: httpTransport };
      transport = httpTransport;
    } else {
      stdio = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: path.resolve(options.workspaceRoot, config.cwd ?? '.'),
        stderr: 'pipe',
        maxBufferSize: MAX_MCP_MESSAGE_BYTES,
      });
      transport = stdio;
    }
    connection = new McpConnection(options.name, client, stdio, http);
    const started = connection;
    stdio?.stderr?.on('data', (chunk: Buffer) => started.keepStderr(chunk.toString()));
    client.onclose = () => started.closedByItself();
    client.onerror = (error) => started.transportError(error);
    try {
      await client.connect(transport, { signal: options.signal });
    } catch (error) {
      await client.close().catch(() => {});
      throw new Error(started.withStderr(errorText(error)));
    }
    return started;
  }

  /** Why the server stopped during the run; undefined while it runs. */
  get stopped(): string | undefined {
    return this.stoppedBecause;
  }

  /**
   * Every tool the server offers (all pages), within the limits of mcp-listing-limits: a listing
   * past them, or a reply past the message size, throws at once saying which.
   */
  async listTools(signal: AbortSignal): Promise<McpToolInfo[]> {
    const budget = new ListingBudget();
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    try {
      do {
        // A signal per page: the SDK adds an abort listener to it for each request, never removed.
        const page = await this.client.listTools(cursor ? { cursor } : undefined, {
          signal: AbortSignal.any([signal, this.broken.signal]),
        });
        budget.add(page.tools, page.nextCursor !== undefined);
        tools.push(
          ...page.tools.map((tool) => ({
            ...tool,
            inputSchema: tool.inputSchema as Record<string, unknown>,
          })),
        );
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      if (this.broken.signal.aborted && this.stoppedBecause) throw new Error(this.stoppedBecause);
      throw error;
    }
    return tools;
  }

  /** Calls a tool; a protocol error or a dropped connection throws with a readable message. */
  async callTool(options: {
    name: string;
    args: Record<string, unknown>;
    signal: AbortSignal;
    timeoutMs: number;
  }) {
    try {
      return await this.client.callTool({ name: options.name, arguments: options.args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
      });
    } catch (error) {
      // An HTTP server that no longer answers is gone for this run, like a stdio server that exited.
      if (this.http !== undefined && isUnreachable(error) && !this.stoppedBecause)
        this.stoppedBecause = `${this.http.url} cannot be reached any more: ${errorText(error)}`;
      throw new Error(
        this.stoppedBecause
          ? `the server stopped during the call (${this.stoppedBecause})`
          : errorText(error),
      );
    }
  }

  /**
   * Ends the server (stdio: its process; HTTP: its session, with a DELETE) and the connection.
   * `force`: a server that failed is killed at once instead of being given seconds to exit.
   */
  async close(options: { force?: boolean } = {}): Promise<void> {
    this.closing = true;
    if (options.force) this.kill();
    if (this.http && !this.stoppedBecause) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.http.transport.terminateSession().catch(() => {}),
        new Promise((resolve) => {
          timer = setTimeout(resolve, SESSION_END_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    await this.client.close().catch(() => {});
  }

  private closedByItself(): void {
    if (this.closing) return;
    this.stoppedBecause ??= this.withStderr('its connection closed (the server exited or crashed)');
  }

  /**
   * The SDK's stdio transport gives up on a line past its buffer (a reply that never ends) and
   * closes, which takes seconds with a server that does not exit. Other transport errors (a line
   * that is not JSON) leave the connection as it is.
   */
  private transportError(error: Error): void {
    if (/ReadBuffer exceeded/.test(error.message))
      this.stopForSize(
        `it sent a message larger than ${megabytes(MAX_MCP_MESSAGE_BYTES)} (a reply that does not end?) and was stopped`,
      );
  }

  /**
   * A reply past the message size (stdio: a line past the SDK's buffer; HTTP: a reply cut by
   * limitedFetch, which would otherwise wait for its timeout): the server is stopped at once and
   * what waited on it fails now, saying why.
   */
  private stopForSize(reason: string): void {
    if (this.stoppedBecause !== undefined) return;
    this.stoppedBecause = reason;
    this.kill();
    this.broken.abort(new Error(reason));
  }

  /** Kills a stdio server's process at once (SIGKILL); nothing for an HTTP server. */
  private kill(): void {
    const pid = this.stdio?.pid;
    if (pid === undefined || pid === null) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ESRCH: it has exited already.
    }
  }

  private keepStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
  }

  private withStderr(message: string): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `${message}; its last output: ${tail}` : message;
  }
}

/** A failed `fetch`: nothing answers at the URL (refused, reset, unknown host, timed out). */
function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError && error.message === 'fetch failed';
}

/** An error's message, with its cause (`fetch failed` alone does not say what failed). */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}
