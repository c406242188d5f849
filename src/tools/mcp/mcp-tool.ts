import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { Tool } from '../types.js';
import type { McpConnection, McpToolInfo } from './mcp-connection.js';
import { mcpResultSummary, mcpResultText } from './mcp-result.js';

/** How long one MCP tool call may take. */
export const MCP_CALL_TIMEOUT_MS = 120_000;

/** A successful call's summary is shorter: it shares the call's row, an error may wrap. */
const MCP_OK_DISPLAY_CHARS = 60;

/** Arguments of a tool whose JSON Schema zod cannot read: any object (the server validates). */
const ANY_ARGUMENTS = z.record(z.string(), z.unknown());

/**
 * An MCP server's tool as a taskweave tool named `name` (`server__tool`, see nameMcpTools): its
 * JSON Schema is shown to the model as it is and checked by the tool wrapper; it counts as
 * `external` for approvals. A call after the server stopped, a protocol error or an error result
 * comes back as an error result.
 */
export function mcpTool(connection: McpConnection, info: McpToolInfo, name: string): Tool {
  const parameters = schemaOf(info.inputSchema);
  const tool = defineTool({
    name,
    description: `${info.description?.trim() || info.name} (a tool of the MCP server "${connection.name}")`,
    whenToUse: `When the task needs what ${info.name} of the "${connection.name}" server does.`,
    whenNotToUse:
      'When a built-in tool does the same (reading, writing or searching workspace files, running commands).',
    parameters,
    readOnly: false,
    changes: 'external',
    async preview(args) {
      return `${name} ${JSON.stringify(args, null, 2)}`;
    },
    async execute(args, ctx) {
      if (connection.stopped) return stoppedResult(connection);
      let result: Awaited<ReturnType<McpConnection['callTool']>>;
      try {
        result = await connection.callTool({
          name: info.name,
          args: args as Record<string, unknown>,
          signal: ctx.signal,
          timeoutMs: MCP_CALL_TIMEOUT_MS,
        });
      } catch (error) {
        if (connection.stopped) return stoppedResult(connection);
        const message = error instanceof Error ? error.message : String(error);
        return {
          output: `The MCP tool ${name} failed: ${message}`,
          display: `failed: ${mcpResultSummary(message)}`,
          isError: true,
        };
      }
      const text = mcpResultText({ content: result.content, structuredContent: result.structuredContent });
      return result.isError === true
        ? {
            output: `The MCP tool ${name} returned an error: ${text}`,
            display: mcpResultSummary(text),
            isError: true,
          }
        : { output: text, display: mcpResultSummary(text, MCP_OK_DISPLAY_CHARS), isError: false };
    },
  });
  return { ...tool, jsonSchema: info.inputSchema };
}

function stoppedResult(connection: McpConnection) {
  return {
    output: `The MCP server "${connection.name}" is not running any more (${connection.stopped}); its tools are unavailable for the rest of this run. Go on without them.`,
    display: 'server stopped',
    isError: true,
  };
}

function schemaOf(inputSchema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return ANY_ARGUMENTS;
  }
}
