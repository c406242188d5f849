import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { placeOf, withDiagnostics } from '../lsp/index.js';
import { fileDiff } from '../text/file-diff.js';
import { countLines, decodeUtf8, lineNumberAt, pluralize, splitLines } from '../text/text-lines.js';
import { mostSimilar } from '../text/text-similarity.js';
import { writeFileAtomic } from '../workspace/atomic-write.js';
import { readFileConfined } from '../workspace/confined-read.js';
import { statIfExists } from '../workspace/stat-if-exists.js';
import { refuse } from './refusal.js';

/** How many candidate lines a "not found" error shows. */
const MAX_SIMILAR_LINES = 3;
/** Lines less alike than this to the first line of `find` are not offered as candidates. */
const MIN_LINE_SIMILARITY = 0.3;
/** How many occurrences a "found N times" error lists by line number. */
const MAX_LISTED_OCCURRENCES = 10;
/** Each edit's snippet in the output is cut to this many lines. */
const MAX_SNIPPET_LINES = 30;

const editSchema = z.object({
  find: z
    .string()
    .min(1)
    .describe('Exact text to replace, whitespace included, occurring exactly once in the file.'),
  replace: z.string().describe('Its replacement (empty deletes it).'),
});

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    edits: z.array(editSchema).min(1),
  }),
);

/** edit_file: exact find-and-replace edits to a file read in this run, all or nothing. */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Exact find-and-replace in a file read with read_file in this run (and unchanged since); edits apply in order, all or none. Returns the changed lines.',
  whenToUse:
    'Changing lines of an existing file. Copy `find` from read_file output without the line numbers, with enough context to be unique; one call per file.',
  whenNotToUse: 'Creating a file or replacing most of it (use write_file).',
  parameters: builtSchema('edit_file', parameters),
  readOnly: false,
  changes: 'files',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(absolute);
    const original = decodeUtf8(await readFileConfined(ctx.workspace, absolute));
    if (original === undefined) return `${shown}: not UTF-8 text (the edit will be refused)`;
    const applied = applyEdits(original, args.edits, shown);
    if ('error' in applied) return `${shown}: ${applied.error} (the edit will be refused)`;
    return fileDiff({ path: shown, before: original, after: applied.content });
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolveForWrite(args.path);
    const shown = ctx.workspace.relative(absolute);
    const info = await statIfExists(absolute);
    if (info === null)
      return refuse(`${shown} does not exist. To create a file, use write_file.`, 'not found');
    if (!info.isFile()) return refuse(`${shown} is not a file; edit_file only edits files.`, 'not a file');
    const whyNot = await ctx.files.whyNotEditable(absolute, shown);
    if (whyNot !== null) return refuse(whyNot, 'read it first');

    const original = decodeUtf8(await readFileConfined(ctx.workspace, absolute));
    if (original === undefined) {
      return refuse(
        `${shown} is not valid UTF-8 text (another encoding, such as Latin-1?). edit_file would corrupt ` +
          'its other characters, so it is refused; convert the file to UTF-8 first (e.g. with iconv) or change it with a command.',
        'not UTF-8',
      );
    }
    const applied = applyEdits(original, args.edits, shown);
    if ('error' in applied)
      return refuse(`${applied.error}\nNo edit was applied; ${shown} is unchanged.`, 'no edit applied');

    const watch = await ctx.languageServers?.watch(absolute, placeOf(ctx));
    await writeFileAtomic(absolute, applied.content, { workspace: ctx.workspace });
    ctx.files.remember(absolute, applied.content);
    const count = pluralize(args.edits.length, 'edit');
    return withDiagnostics(
      {
        output: `Edited ${shown}: ${count} applied; it now has ${pluralize(countLines(applied.content), 'line')}.\n\n${applied.snippets.join('\n\n')}`,
        display: count,
        isError: false,
      },
      await watch?.finish(applied.content),
    );
  },
});

interface Edit {
  find: string;
  replace: string;
}

/** Applies the edits in order to the content in memory; the first edit that cannot apply stops all. */
function applyEdits(
  original: string,
  edits: Edit[],
  shown: string,
): { content: string; snippets: string[] } | { error: string } {
  // A model writes \n; a file with Windows line ends must still match and keep its style.
  const windowsLineEnds = original.includes('\r\n');
  let content = original;
  const snippets: string[] = [];
  for (const [index, edit] of edits.entries()) {
    const label = edits.length === 1 ? 'The edit' : `Edit ${index + 1} of ${edits.length}`;
    const find = windowsLineEnds ? toWindowsLineEnds(edit.find) : edit.find;
    const replace = windowsLineEnds ? toWindowsLineEnds(edit.replace) : edit.replace;
    if (find === replace)
      return { error: `${label}: find and replace are the same text; nothing would change.` };
    const positions = occurrences(content, find);
    const [at] = positions;
    if (at === undefined)
      return { error: notFound({ label, find, content, shown, afterEarlierEdits: index > 0 }) };
    if (positions.length > 1) {
      const lines = positions
        .slice(0, MAX_LISTED_OCCURRENCES)
        .map((position) => lineNumberAt(content, position));
      const more = positions.length > MAX_LISTED_OCCURRENCES ? ', …' : '';
      return {
        error:
          `${label}: the find text was found ${positions.length} times in ${shown} (starting at lines ${lines.join(', ')}${more}). ` +
          'It must match exactly once: include more of the surrounding lines in find to single out the one to change.',
      };
    }
    const next = content.slice(0, at) + replace + content.slice(at + find.length);
    const heading = edits.length === 1 ? '' : `${label}, `;
    snippets.push(snippet({ before: content, after: next, at, findLength: find.length, heading }));
    content = next;
  }
  return { content, snippets };
}

function toWindowsLineEnds(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Start offsets of every occurrence, overlapping ones included. */
function occurrences(content: string, find: string): number[] {
  const positions: number[] = [];
  for (let at = content.indexOf(find); at !== -1; at = content.indexOf(find, at + 1)) positions.push(at);
  return positions;
}

function notFound(options: {
  label: string;
  find: string;
  content: string;
  shown: string;
  afterEarlierEdits: boolean;
}): string {
  const { label, find, content, shown } = options;
  const firstLine =
    splitLines(find)
      .find((line) => line.trim() !== '')
      ?.trim() ?? find.trim();
  const numbered = splitLines(content).map((text, index) => ({ text, number: index + 1 }));
  const similar = mostSimilar(firstLine, numbered, {
    textOf: (line) => line.text.trim(),
    limit: MAX_SIMILAR_LINES,
    minScore: MIN_LINE_SIMILARITY,
  });
  const intro = `${label}: the find text was not found in ${shown}. It must match exactly, whitespace and indentation included.`;
  if (similar.length === 0)
    return `${intro} No line resembles its first line; read the file again with read_file.`;
  const lineNumberNote = options.afterEarlierEdits
    ? ' (numbered as after the earlier edits of this call)'
    : '';
  const candidates = similar.map((line) => `${line.number}\t${line.text}`).join('\n');
  return `${intro} The lines most like its first line${lineNumberNote}:\n${candidates}`;
}

/**
 * A unified-diff-like view of one replacement: the whole lines it touched, lines it left as they
 * were shown as context.
 */
function snippet(options: {
  before: string;
  after: string;
  at: number;
  findLength: number;
  heading: string;
}): string {
  const { before, after, at } = options;
  const blockStart = at === 0 ? 0 : before.lastIndexOf('\n', at - 1) + 1;
  const lineBreakAfter = before.indexOf('\n', at + options.findLength - 1);
  const blockEnd = lineBreakAfter === -1 ? before.length : lineBreakAfter + 1;
  // Everything after the block is the same in both versions.
  const unchangedTail = before.length - blockEnd;
  const oldLines = splitLines(before.slice(blockStart, blockEnd));
  const newLines = splitLines(after.slice(blockStart, after.length - unchangedTail));

  let common = 0;
  while (common < oldLines.length && common < newLines.length && oldLines[common] === newLines[common])
    common++;
  let commonEnd = 0;
  while (
    commonEnd < oldLines.length - common &&
    commonEnd < newLines.length - common &&
    oldLines[oldLines.length - 1 - commonEnd] === newLines[newLines.length - 1 - commonEnd]
  ) {
    commonEnd++;
  }
  const lines = [
    ...oldLines.slice(0, common).map((line) => `  ${line}`),
    ...oldLines.slice(common, oldLines.length - commonEnd).map((line) => `- ${line}`),
    ...newLines.slice(common, newLines.length - commonEnd).map((line) => `+ ${line}`),
    ...oldLines.slice(oldLines.length - commonEnd).map((line) => `  ${line}`),
  ];
  const shownLines =
    lines.length > MAX_SNIPPET_LINES
      ? [...lines.slice(0, MAX_SNIPPET_LINES), `… ${lines.length - MAX_SNIPPET_LINES} more lines`]
      : lines;
  return `@@ ${options.heading}line ${lineNumberAt(before, blockStart)} @@\n${shownLines.join('\n')}`;
}
