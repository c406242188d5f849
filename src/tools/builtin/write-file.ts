import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { placeOf, withDiagnostics } from '../lsp/index.js';
import { fileDiff } from '../text/file-diff.js';
import { countLines, decodeUtf8, pluralize } from '../text/text-lines.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { readFileConfined } from '../workspace/confined-read.js';
import { statIfExists } from '../workspace/stat-if-exists.js';

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

/** write_file: creates or replaces a whole file, atomically, creating missing folders. */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Writes a whole file atomically, creating it (and missing folders) or replacing it.',
  whenToUse: 'A new file, or a short file rewritten almost entirely; it then counts as read for edit_file.',
  whenNotToUse: 'Changing part of a file (edit_file), deleting or moving files (run_command).',
  parameters: builtSchema('write_file', parameters),
  readOnly: false,
  changes: 'files',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(absolute);
    const existing = await statIfExists(absolute);
    if (existing !== null && !existing.isFile()) return `${shown}: not a file (the write will be refused)`;
    const before = existing === null ? '' : decodeUtf8(await readFileConfined(ctx.workspace, absolute));
    if (before === undefined) return `${shown}: replaces a file that is not UTF-8 text`;
    return fileDiff({ path: shown, before, after: args.content, created: existing === null });
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(absolute);
    const existing = await statIfExists(absolute);
    if (existing?.isDirectory()) {
      return {
        output: `${shown} is a folder; write_file writes files. Give a file path such as ${shown}/index.ts.`,
        display: 'is a folder',
        isError: true,
      };
    }
    if (existing && !existing.isFile()) {
      return {
        output: `${shown} is not a regular file (a device, socket or pipe); it is not written.`,
        display: 'not a file',
        isError: true,
      };
    }
    const watch = await ctx.languageServers?.watch(absolute, placeOf(ctx));
    await writeFileAtomic(absolute, args.content, { workspace: ctx.workspace, createFolders: true });
    ctx.files.remember(absolute, args.content);
    const lines = pluralize(countLines(args.content), 'line');
    const bytes = pluralize(Buffer.byteLength(args.content, 'utf8'), 'byte');
    const verb = existing ? 'overwrote' : 'created';
    return withDiagnostics(
      {
        output: `${existing ? 'Overwrote' : 'Created'} ${shown} (${lines}, ${bytes}).`,
        display: `${verb}, ${lines}`,
        isError: false,
      },
      await watch?.finish(args.content),
    );
  },
});
