import { loadConfigFile } from '../../config/config-file.js';
import type { McpServerConfig } from '../../tools/mcp/index.js';
import { Workspace } from '../../tools/workspace/index.js';

/** One configured MCP server as `taskweave mcp list` shows it. */
export interface McpServerListing {
  name: string;
  /** How it is reached: `stdio: node server.js`, `http: https://…`. */
  transport: string;
  /** Its tools (as the model sees their names) when it started; the failure otherwise. */
  tools?: { name: string; description: string }[];
  failure?: string;
  /** Changes made to its tools' names (listed twice, a name taken), as a run shows them. */
  notes?: string[];
}

/**
 * Starts every MCP server of the config (the workspace's and the user's) together, as a run
 * does (so that its tool names are the run's), lists their tools and stops them again.
 */
export async function listMcpServers(options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{
  configFile?: string;
  servers: McpServerListing[];
}> {
  const workspace = await Workspace.open(options.cwd);
  const { paths, config } = await loadConfigFile({ cwd: workspace.root, env: options.env ?? process.env });
  // `mcp` is read from the user's own config only (a workspace config may not add servers).
  const path = paths.at(-1);
  const configured = config.mcp ?? {};
  const { startMcpServers } = await import('../../tools/mcp/index.js');
  const started = await startMcpServers({ servers: configured, workspaceRoot: workspace.root });
  try {
    const listings = started.servers.map(
      (server): McpServerListing => ({
        name: server.name,
        transport: transportOf(configured[server.name]!),
        ...(server.failure !== undefined
          ? { failure: server.failure }
          : { tools: server.tools.map((tool) => ({ name: tool.name, description: tool.description })) }),
        ...(server.notes.length > 0 ? { notes: server.notes } : {}),
      }),
    );
    return { configFile: path, servers: listings };
  } finally {
    await started.close();
  }
}

function transportOf(server: McpServerConfig): string {
  return 'url' in server
    ? `http: ${server.url}`
    : `stdio: ${[server.command, ...(server.args ?? [])].join(' ')}`;
}
