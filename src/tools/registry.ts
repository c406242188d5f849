import { analyzeOutputTool } from './builtin/analyze-output.js';
import { codeNavigationTool } from './builtin/code-navigation.js';
import { editFileTool } from './builtin/edit-file.js';
import { readBackgroundOutputTool } from './builtin/read-background-output.js';
import { readFileTool } from './builtin/read-file.js';
import { requestInputTool } from './builtin/request-input.js';
import { runCommandTool } from './builtin/run-command.js';
import { searchCodeTool } from './builtin/search-code.js';
import { stopBackgroundCommandTool } from './builtin/stop-background-command.js';
import { webFetchTool } from './builtin/web-fetch.js';
import { writeFileTool } from './builtin/write-file.js';
import type { Tool, ToolOfferState } from './types.js';

/** The tools every run has. */
export const coreTools: Tool[] = [
  runCommandTool,
  readFileTool,
  writeFileTool,
  editFileTool,
  searchCodeTool,
  analyzeOutputTool,
  requestInputTool,
  readBackgroundOutputTool,
  stopBackgroundCommandTool,
  codeNavigationTool,
  webFetchTool,
];

/** The tools of one run, by name; names are unique. */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();

  constructor(tools: Tool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name))
        throw new Error(`Two tools are named ${tool.name}; tool names must be unique.`);
      this.byName.set(tool.name, tool);
    }
  }

  /** The tool with this name, if there is one. */
  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** Every tool, in the order given. */
  list(): Tool[] {
    return [...this.byName.values()];
  }

  /**
   * The tools to offer the model in this state, in the order given: those without a condition
   * and those whose `offeredWhen` holds. Every tool stays callable through `get`.
   */
  offered(state: ToolOfferState): Tool[] {
    return this.list().filter((tool) => tool.offeredWhen?.(state) ?? true);
  }

  /** Every tool's name, in the order given. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
