import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import type { RunContext } from './run-state.js';

/** The workspace tools of a run (without control tools). */
export function coreToolsOf(run: RunContext): Tool[] {
  return run.tools;
}

/** A registry of the given tools plus extra (control) tools. */
export function registryWith(tools: Tool[], extra: Tool[]): ToolRegistry {
  return new ToolRegistry([...tools, ...extra]);
}
