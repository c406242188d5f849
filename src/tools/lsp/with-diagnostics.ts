import type { ToolContext, ToolResult } from '../types.js';
import type { ChangeDiagnostics } from './diagnostics.js';
import { diagnosticsText } from './diagnostics-diff.js';
import type { FilePlace } from './language-servers.js';

/** Where a tool call works, as the language servers need it. */
export function placeOf(ctx: ToolContext): FilePlace {
  return { workspaceRoot: ctx.workspace.root, sandbox: ctx.sandbox };
}

/** A file change's result with the problems it introduced (or the note why none were had) added. */
export function withDiagnostics(result: ToolResult, found: ChangeDiagnostics | undefined): ToolResult {
  if (found === undefined) return result;
  const text = diagnosticsText(found);
  if (text === '') return result;
  const count = found.diagnostics.length;
  return {
    ...result,
    output: `${result.output}\n\n${text}`,
    ...(count === 0
      ? {}
      : {
          diagnostics: found.diagnostics,
          display: `${result.display ?? ''}${result.display ? ', ' : ''}${count} new problem${count === 1 ? '' : 's'}`,
        }),
  };
}
