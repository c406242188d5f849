/** The MCP room's face for other layers: a server's configuration, and starting a run's servers. */
export type { McpServerConfig } from './mcp-config.js';
export { startMcpServers } from './mcp-servers.js';
