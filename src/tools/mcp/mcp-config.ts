/** An MCP server started over stdio: its program, arguments and extra environment. */
export interface StdioServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** The folder it starts in, relative to the workspace (default: the workspace). */
  cwd?: string;
}

/** An MCP server reached over streamable HTTP. */
export interface HttpServerConfig {
  url: string;
  headers?: Record<string, string>;
}

/** One configured MCP server (the config's `"mcp": { "name": … }`). */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** Separates a server's name from its tool's name in the tool names the model sees. */
export const MCP_NAME_SEPARATOR = '__';
