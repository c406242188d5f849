import { MCP_NAME_SEPARATOR } from './mcp-config.js';
import type { McpToolInfo } from './mcp-connection.js';

/** The longest tool name the model providers take (OpenAI's and Anthropic's limit). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** What a provider refuses in a tool name: anything but letters, digits, `_` and `-`. */
const NOT_A_NAME_CHARACTER = /[^A-Za-z0-9_-]/g;

/** The tools one server listed, in its order. */
export interface ListedTools {
  server: string;
  tools: McpToolInfo[];
}

/** A listed tool with the name the model sees. */
export interface NamedMcpTool {
  server: string;
  info: McpToolInfo;
  name: string;
}

/** A change made to a server's tool names, said once, to show in the run and in `mcp list`. */
export interface NamingNote {
  server: string;
  text: string;
}

/**
 * The names the model sees for the tools of several servers: `server__tool`, with any character
 * a provider refuses made `_` and at most MAX_TOOL_NAME_LENGTH long, unique among themselves and
 * the `reserved` (built-in) names. Two tools cannot share a name (every run would fail): a tool a
 * server lists twice is offered once; a name already taken (`evil` + `b__c` against `evil__b` +
 * `c`) gets the first free `_2`, `_3`… suffix. Deterministic: servers in the given (config)
 * order, tools in their listing order, the first keeps the name. Each change comes with a note.
 */
export function nameMcpTools(
  listed: readonly ListedTools[],
  reserved: Iterable<string> = [],
): { named: NamedMcpTool[]; notes: NamingNote[] } {
  const takenBy = new Map<string, string>();
  for (const name of reserved) takenBy.set(name, 'a built-in tool');
  const named: NamedMcpTool[] = [];
  const notes: NamingNote[] = [];
  for (const { server, tools } of listed) {
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const info of tools) {
      if (seen.has(info.name)) {
        if (!repeated.has(info.name)) {
          repeated.add(info.name);
          notes.push({
            server,
            text: `The MCP server "${server}" lists the tool ${JSON.stringify(info.name)} more than once; only the first is offered.`,
          });
        }
        continue;
      }
      seen.add(info.name);
      const wanted = `${server}${MCP_NAME_SEPARATOR}${info.name}`;
      const clean = cut(wanted.replace(NOT_A_NAME_CHARACTER, '_'), '');
      const name = freeName(clean, takenBy);
      const owner = `the tool ${JSON.stringify(info.name)} of the MCP server "${server}"`;
      if (name !== clean) {
        notes.push({
          server,
          text: `The tool ${JSON.stringify(info.name)} of the MCP server "${server}" is offered as ${name}, since ${clean} is taken by ${takenBy.get(clean)}.`,
        });
      } else if (name !== wanted) {
        notes.push({
          server,
          text: `The tool ${JSON.stringify(info.name)} of the MCP server "${server}" is offered as ${name} (a tool name holds at most ${MAX_TOOL_NAME_LENGTH} letters, digits, _ and -).`,
        });
      }
      takenBy.set(name, owner);
      named.push({ server, info, name });
    }
  }
  return { named, notes };
}

/** `name`, or the first of `name_2`, `name_3`… that nothing has taken. */
function freeName(name: string, takenBy: ReadonlyMap<string, string>): string {
  if (!takenBy.has(name)) return name;
  for (let index = 2; ; index += 1) {
    const candidate = cut(name, `_${index}`);
    if (!takenBy.has(candidate)) return candidate;
  }
}

/** `name` + `suffix`, with the name shortened so that the whole fits MAX_TOOL_NAME_LENGTH. */
function cut(name: string, suffix: string): string {
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
}
