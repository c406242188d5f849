import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './mcp-config.js';

/** How much of a stdio server's stderr is kept, to explain why it stopped. */
const STDERR_TAIL_CHARS = 2_000;

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

  private constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly stdio: StdioClientTransport | undefined,
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
    if ('url' in config) {
      transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: config.headers ? { headers: config.headers } : undefined,
      });
    } else {
      stdio = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: path.resolve(options.workspaceRoot, config.cwd ?? '.'),
        stderr: 'pipe',
      });
      transport = stdio;
    }
    const connection = new McpConnection(options.name, client, stdio);
    stdio?.stderr?.on('data', (chunk: Buffer) => connection.keepStderr(chunk.toString()));
    client.onclose = () => connection.closedByItself();
    try {
      await client.connect(transport, { signal: options.signal });
    } catch (error) {
      await client.close().catch(() => {});
      throw new Error(connection.withStderr(error instanceof Error ? error.message : String(error)));
    }
    return connection;
  }

  /** Why the server stopped during the run; undefined while it runs. */
  get stopped(): string | undefined {
    return this.stoppedBecause;
  }

  /** Every tool the server offers (all pages). */
  async listTools(signal: AbortSignal): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { signal });
      tools.push(
        ...page.tools.map((tool) => ({ ...tool, inputSchema: tool.inputSchema as Record<string, unknown> })),
      );
      cursor = page.nextCursor;
    } while (cursor);
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
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        this.stoppedBecause ? `the server stopped during the call (${this.stoppedBecause})` : message,
      );
    }
  }

  /** Ends the server (stdio: its process) and the connection. */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => {});
  }

  private closedByItself(): void {
    if (this.closing) return;
    this.stoppedBecause = this.withStderr('its connection closed (the server exited or crashed)');
  }

  private keepStderr(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
  }

  private withStderr(message: string): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `${message}; its last output: ${tail}` : message;
  }
}
