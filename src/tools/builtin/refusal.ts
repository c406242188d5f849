import type { ToolResult } from '../types.js';

/** A tool's refusal: an error result the model reads, with a short label for people. */
export function refuse(output: string, display: string): ToolResult {
  return { output, display, isError: true };
}
