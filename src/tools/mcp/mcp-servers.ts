import type { Tool } from '../types.js';
import type { McpServerConfig } from './mcp-config.js';
import { McpConnection } from './mcp-connection.js';
import { mcpTool } from './mcp-tool.js';

/** How long a server has to start and list its tools. */
export const MCP_START_TIMEOUT_MS = 30_000;

/** The MCP servers of one run: their tools, what went wrong starting them, and their stop. */
export interface McpServers {
  tools: Tool[];
  connections: McpConnection[];
  /** One line per server that failed to start: the run goes on without it. */
  failures: string[];
  /** Stops every server (their processes end). */
  close(): Promise<void>;
}

/**
 * Starts the configured servers side by side and lists their tools. A server that does not
 * start in time, fails its handshake or its tool listing is stopped and reported in `failures`.
 */
export async function startMcpServers(options: {
  servers: Record<string, McpServerConfig>;
  workspaceRoot: string;
  timeoutMs?: number;
}): Promise<McpServers> {
  const tools: Tool[] = [];
  const connections: McpConnection[] = [];
  const failures: string[] = [];
  const timeoutMs = options.timeoutMs ?? MCP_START_TIMEOUT_MS;
  await Promise.all(
    Object.entries(options.servers).map(async ([name, config]) => {
      const signal = AbortSignal.timeout(timeoutMs);
      let connection: McpConnection | undefined;
      try {
        connection = await McpConnection.connect({
          name,
          config,
          workspaceRoot: options.workspaceRoot,
          signal,
        });
        const started = connection;
        const infos = await started.listTools(signal);
        connections.push(started);
        tools.push(...infos.map((info) => mcpTool(started, info)));
      } catch (error) {
        await connection?.close();
        const message = signal.aborted
          ? `it did not answer within ${timeoutMs / 1000}s`
          : error instanceof Error
            ? error.message
            : String(error);
        failures.push(
          `The MCP server "${name}" failed to start: ${message}. The run goes on without its tools.`,
        );
      }
    }),
  );
  // Servers start side by side; their tools are offered in a stable order.
  tools.sort((a, b) => a.name.localeCompare(b.name));
  return {
    tools,
    connections,
    failures,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
