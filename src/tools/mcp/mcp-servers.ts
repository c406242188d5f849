import { coreTools } from '../registry.js';
import type { Tool } from '../types.js';
import type { McpServerConfig } from './mcp-config.js';
import { McpConnection, type McpToolInfo } from './mcp-connection.js';
import { mcpTool } from './mcp-tool.js';
import { nameMcpTools } from './mcp-tool-names.js';

/** How long a server has to start and list its tools. */
export const MCP_START_TIMEOUT_MS = 30_000;

/** One configured server as it started: its tools, or why it did not start. */
export interface StartedMcpServer {
  name: string;
  /** Its tools, under the names the model sees (empty when it failed). */
  tools: Tool[];
  /** Why it did not start (one line: the run goes on without it). */
  failure?: string;
  /** Changes made to its tool names (a tool listed twice, a name taken), one line each. */
  notes: string[];
}

/** The MCP servers of one run: their tools, what went wrong starting them, and their stop. */
export interface McpServers {
  tools: Tool[];
  connections: McpConnection[];
  /** One line per server that failed to start: the run goes on without it. */
  failures: string[];
  /** One line per change made to the tools' names, shown in the run. */
  notes: string[];
  /** Every configured server, in the config's order. */
  servers: StartedMcpServer[];
  /** Stops every server (their processes end). */
  close(): Promise<void>;
}

/**
 * Starts the configured servers side by side and lists their tools. A server that does not
 * start in time, fails its handshake or its tool listing (or lists too much) is stopped and
 * reported in `failures`. The tools are named by nameMcpTools, in the config's order, so that
 * two servers (or one listing a tool twice) never give two tools one name.
 */
export async function startMcpServers(options: {
  servers: Record<string, McpServerConfig>;
  workspaceRoot: string;
  timeoutMs?: number;
}): Promise<McpServers> {
  const timeoutMs = options.timeoutMs ?? MCP_START_TIMEOUT_MS;
  const started = await Promise.all(
    Object.entries(options.servers).map(([name, config]) =>
      startOne({ name, config, workspaceRoot: options.workspaceRoot, timeoutMs }),
    ),
  );
  const running = started.filter((server) => server.connection !== undefined);
  const { named, notes } = nameMcpTools(
    running.map((server) => ({ server: server.name, tools: server.infos })),
    coreTools.map((tool) => tool.name),
  );
  const connections = new Map(running.map((server) => [server.name, server.connection!]));
  const servers: StartedMcpServer[] = started.map((server) => ({
    name: server.name,
    tools: named
      .filter((tool) => tool.server === server.name)
      .map((tool) => mcpTool(connections.get(server.name)!, tool.info, tool.name)),
    ...(server.failure === undefined ? {} : { failure: server.failure }),
    notes: notes.filter((note) => note.server === server.name).map((note) => note.text),
  }));
  // Servers start side by side; their tools are offered in a stable order.
  const tools = servers.flatMap((server) => server.tools).sort((a, b) => a.name.localeCompare(b.name));
  return {
    tools,
    connections: [...connections.values()],
    // Said during a run (`mcp list` shows `failure` as it is, with no run to go on).
    failures: servers.flatMap((server) =>
      server.failure === undefined ? [] : [`${server.failure} The run goes on without its tools.`],
    ),
    notes: notes.map((note) => note.text),
    servers,
    close: async () => {
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}

/** Starts one server and lists its tools; a failure is returned as its line, the server stopped. */
async function startOne(options: {
  name: string;
  config: McpServerConfig;
  workspaceRoot: string;
  timeoutMs: number;
}): Promise<{ name: string; connection?: McpConnection; infos: McpToolInfo[]; failure?: string }> {
  const { name, timeoutMs } = options;
  const signal = AbortSignal.timeout(timeoutMs);
  let connection: McpConnection | undefined;
  try {
    connection = await McpConnection.connect({
      name,
      config: options.config,
      workspaceRoot: options.workspaceRoot,
      signal,
    });
    return { name, connection, infos: await connection.listTools(signal) };
  } catch (error) {
    await connection?.close({ force: true });
    const message = signal.aborted
      ? `it did not answer within ${timeoutMs / 1000}s`
      : error instanceof Error
        ? error.message
        : String(error);
    return {
      name,
      infos: [],
      failure: `The MCP server "${name}" failed to start: ${message}.`,
    };
  }
}
