import { loadConfigFile } from '../model/config-file.js';
import type { McpServerConfig } from '../tools/mcp/mcp-config.js';
import { Workspace } from '../tools/workspace.js';

/** One configured MCP server as `taskweave mcp list` shows it. */
export interface McpServerListing {
  name: string;
  /** How it is reached: `stdio: node server.js`, `http: https://…`. */
  transport: string;
  /** Its tools (as the model sees their names) when it started; the failure otherwise. */
  tools?: { name: string; description: string }[];
  failure?: string;
}

/**
 * Starts every MCP server of the config (the workspace's and the user's), lists their tools
 * and stops them again.
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
  const listings: McpServerListing[] = [];
  const { startMcpServers } = await import('../tools/mcp/mcp-servers.js');
  for (const [name, server] of Object.entries(configured)) {
    const started = await startMcpServers({ servers: { [name]: server }, workspaceRoot: workspace.root });
    try {
      listings.push({
        name,
        transport: transportOf(server),
        ...(started.failures[0] !== undefined
          ? { failure: started.failures[0] }
          : { tools: started.tools.map((tool) => ({ name: tool.name, description: tool.description })) }),
      });
    } finally {
      await started.close();
    }
  }
  return { configFile: path, servers: listings };
}

function transportOf(server: McpServerConfig): string {
  return 'url' in server
    ? `http: ${server.url}`
    : `stdio: ${[server.command, ...(server.args ?? [])].join(' ')}`;
}
