import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.js';
import { defineTool } from './define-tool.js';
import { fileDiff } from './file-diff.js';
import { statIfExists } from './stat-if-exists.js';
import { countLines, decodeUtf8, pluralize } from './text-lines.js';

const parameters = z.object({
  path: z.string().min(1).describe('The file to write, relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

/** write_file: creates or replaces a whole file, atomically, creating missing folders. */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Writes the complete content of a file in the workspace, creating it and any missing parent ' +
    'folders, or replacing it if it exists. The write is atomic: the file never holds half of the content.',
  whenToUse:
    'To create a new file, or to rewrite a short file almost entirely. After write_file the file ' +
    'counts as read, so edit_file can change it next.',
  whenNotToUse:
    'Not for changing part of an existing file: use edit_file, which keeps the rest exactly as it ' +
    'is and cannot drop content by accident. Not for deleting or moving files (use run_command).',
  parameters,
  readOnly: false,
  changes: 'files',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(absolute);
    const existing = await statIfExists(absolute);
    if (existing !== null && !existing.isFile()) return `${shown}: not a file (the write will be refused)`;
    const before = existing === null ? '' : decodeUtf8(await readFile(absolute));
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
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFileAtomic(absolute, args.content);
    ctx.files.remember(absolute, args.content);
    const lines = pluralize(countLines(args.content), 'line');
    const bytes = pluralize(Buffer.byteLength(args.content, 'utf8'), 'byte');
    const verb = existing ? 'overwrote' : 'created';
    return {
      output: `${existing ? 'Overwrote' : 'Created'} ${shown} (${lines}, ${bytes}).`,
      display: `${verb}, ${lines}`,
      isError: false,
    };
  },
});
