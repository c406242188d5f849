import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { NAVIGATIONS, navigate, placeOf } from '../lsp/index.js';
import { refuse } from './refusal.js';

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    operation: z.enum(NAVIGATIONS),
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    line: z.number().int().positive().optional().describe('The line of the symbol (not for symbols).'),
    symbol: z.string().min(1).optional().describe('The symbol on that line (not for symbols).'),
  }),
);

/** code_navigation: a language server's definition, references, hover or symbols. */
export const codeNavigationTool = defineTool({
  name: 'code_navigation',
  description:
    "Asks the language server: a symbol's definition, references or hover (type, docs), or a file's symbols.",
  whenToUse: 'Finding where a symbol is defined or used, or its type: exact where a text search guesses.',
  whenNotToUse: 'Files no language server serves (other than TypeScript, JavaScript or Python), plain text.',
  parameters: builtSchema('code_navigation', parameters),
  readOnly: true,
  // Offered once a language server runs (a source file was read or changed).
  offeredWhen: (state) => state.languageServers?.running === true,
  async execute(args, ctx) {
    const servers = ctx.languageServers;
    if (servers === undefined) return refuse('Language servers are off in this run.', 'off');
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    if (!servers.serves(absolute)) return refuse(`No language server serves ${shown}.`, 'no server');
    let position: { line: number; column: number } | undefined;
    if (args.operation !== 'symbols') {
      if (args.line === undefined || args.symbol === undefined)
        return refuse(`${args.operation} needs the line and the symbol on it.`, 'no position');
      const text = (await readFile(absolute, 'utf8')).split('\n')[args.line - 1];
      const column = text === undefined ? -1 : columnOf(text, args.symbol);
      if (column < 0)
        return refuse(`${shown} has no "${args.symbol}" on line ${args.line}.`, 'not on that line');
      position = { line: args.line, column: column + 1 };
    }
    const output = await navigate({
      servers,
      place: placeOf(ctx),
      file: absolute,
      navigation: args.operation,
      ...(position === undefined ? {} : { position }),
    });
    return {
      output,
      display: `${args.operation} ${args.symbol ?? shown}`,
      isError: output.startsWith('No answer'),
    };
  },
});

/** Where the symbol stands on the line as a whole word (else anywhere), -1 when absent. */
function columnOf(text: string, symbol: string): number {
  const word = new RegExp(`(?<![\\w$])${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).exec(text);
  return word?.index ?? text.indexOf(symbol);
}
