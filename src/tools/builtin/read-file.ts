import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes, ImageIntakeError, takeImage } from '../../util/image-intake.js';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { placeOf } from '../lsp/index.js';
import { decodeUtf8, numberLines, pluralize, splitLines } from '../text/text-lines.js';
import { mostSimilar } from '../text/text-similarity.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../text/truncate.js';
import type { ToolContext, ToolResult } from '../types.js';
import { openFileConfined } from '../workspace/confined-open.js';
import { refuse } from './refusal.js';

/** The most lines one read returns. */
export const MAX_READ_LINES = 2_000;
/** The most characters of numbered lines one read returns; below the wrapper's limit, with room for notes. */
export const MAX_READ_CHARS = MAX_TOOL_OUTPUT_CHARS - 2_000;
/** Longer lines (minified code, data) are shortened in the output. */
export const MAX_LINE_CHARS = 2_000;
/** A NUL byte in this many first bytes marks a file as binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Larger files are not read at all: they are data or logs, better searched than read. */
export const MAX_READ_FILE_BYTES = 20 * 1024 * 1024;
/** How many similar names a "does not exist" error suggests. */
const MAX_NAME_SUGGESTIONS = 3;
/** How alike a name must be to a missing one to be suggested. */
const MIN_NAME_SIMILARITY = 0.5;

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe('The file, relative to the workspace root.'),
    start_line: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1).'),
    end_line: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Last line to return, inclusive (default: the end).'),
  }),
);

/** read_file: returns a text file's lines, numbered, and records it as read for edit_file. */
export const readFileTool = defineTool({
  name: 'read_file',
  description: `Returns a text file's lines, numbered (number, tab, line), at most ${MAX_READ_LINES} per call.`,
  whenToUse:
    'Before editing a file (edit_file requires it), to understand code search_code found, to check a file you wrote; of a large file, only the lines you need.',
  whenNotToUse:
    'Folders (run_command: ls, find), searching across files (search_code), non-image binary files.',
  parameters: builtSchema('read_file', parameters),
  readOnly: true,
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    // Opened first, by descriptor, and everything below read from it: a folder on the path
    // swapped for a link after the check cannot make it another (outside) file.
    const handle = await openFileConfined(ctx.workspace, absolute, 'read');
    if (handle === null) return missingFile(ctx, absolute, shown);
    try {
      const info = await handle.stat();
      if (info.isDirectory()) {
        return refuse(
          `${shown} is a folder, not a file. List what it holds with run_command (\`ls -la ${shown}\`), ` +
            'or find text inside it with search_code; then read one of its files.',
          'is a folder',
        );
      }
      if (!info.isFile()) {
        return refuse(
          `${shown} is not a regular file (a device, socket or pipe); read_file only reads files.`,
          'not a file',
        );
      }
      if (info.size > MAX_READ_FILE_BYTES) {
        return refuse(
          `${shown} is ${info.size} bytes, more than read_file reads (${MAX_READ_FILE_BYTES}). Find the ` +
            'part you need with search_code, or look at it with run_command (head, tail, grep).',
          'too large',
        );
      }
      const bytes = await handle.readFile();
      const imageType = imageTypeOf(bytes);
      if (imageType !== undefined) return await imageResult(bytes, imageType, shown, ctx);
      if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
        return refuse(
          `${shown} is a binary file (it contains NUL bytes); read_file only reads text. Inspect it with ` +
            `run_command instead, e.g. \`file ${shown}\` or \`xxd ${shown} | head\`.`,
          'binary file',
        );
      }
      // The whole content is recorded even for a range: edit_file checks the file as a whole.
      ctx.files.remember(absolute, bytes);
      // Its language server starts (and learns the file) while the model reads: an edit then waits less.
      ctx.languageServers?.warm(absolute, placeOf(ctx));
      const result = numberedLines(splitLines(bytes.toString('utf8')), shown, args);
      if (!result.isError && decodeUtf8(bytes) === undefined) {
        result.output = `Note: ${shown} is not valid UTF-8; characters that are not are shown as �, and edit_file will refuse it.\n${result.output}`;
      }
      return result;
    } finally {
      await handle.close();
    }
  },
});

/** PNG, JPEG, GIF or WebP, told by the file's first bytes; undefined for any other file. */
function imageTypeOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'PNG';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'GIF';
  if (head.startsWith('RIFF') && head.slice(8) === 'WEBP') return 'WebP';
  return undefined;
}

/**
 * An image file: the image itself for a model that sees images (through the same intake as an
 * attached one: its size limit, scaled down past 2000 px or 5 MB), else a text saying it cannot.
 */
async function imageResult(
  bytes: Buffer,
  type: string,
  shown: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (ctx.vision !== true) {
    return refuse(
      `${shown} is a ${type} image (${formatBytes(bytes.byteLength)}). The model in use cannot see images, ` +
        'so read_file cannot show it to you. Ask the user what it shows, or inspect it with run_command ' +
        `(e.g. \`file ${shown}\`).`,
      'image: the model cannot see images',
    );
  }
  let image: Awaited<ReturnType<typeof takeImage>>;
  try {
    image = await takeImage(bytes);
  } catch (error) {
    if (!(error instanceof ImageIntakeError)) throw error;
    return refuse(
      `${shown} cannot be given to you as an image: ${error.message}`,
      `image refused: ${error.message}`,
    );
  }
  const size = `${image.width}×${image.height}`;
  const scaled =
    image.scaledFrom === undefined
      ? ''
      : ` (scaled down from ${image.scaledFrom.width}×${image.scaledFrom.height}, ${formatBytes(image.scaledFrom.bytes)})`;
  return {
    output: `${shown} is a ${type} image, ${size}${scaled}, ${formatBytes(image.bytes.byteLength)}; the image follows.`,
    display: `image ${size}`,
    isError: false,
    image,
  };
}

function numberedLines(
  lines: string[],
  shown: string,
  args: { start_line?: number; end_line?: number },
): ToolResult {
  const total = lines.length;
  if (total === 0) return { output: `${shown} is empty (0 lines).`, display: 'empty file', isError: false };
  const start = args.start_line ?? 1;
  if (start > total) {
    return refuse(
      `start_line ${start} is past the end of ${shown}, which has ${pluralize(total, 'line')}.`,
      'past the end',
    );
  }
  if (args.end_line !== undefined && args.end_line < start) {
    return refuse(
      `end_line ${args.end_line} is before start_line ${start}; give a range with end_line >= start_line.`,
      'bad range',
    );
  }
  const end = Math.min(args.end_line ?? total, total);
  const shownLines: string[] = [];
  let chars = 0;
  for (let number = start; number <= end && shownLines.length < MAX_READ_LINES; number++) {
    const line = shortenLine(lines[number - 1] ?? '');
    chars += line.length + String(number).length + 2;
    if (chars > MAX_READ_CHARS && shownLines.length > 0) break;
    shownLines.push(line);
  }
  const last = start + shownLines.length - 1;
  const body = numberLines(shownLines, start);
  if (last < end) {
    return {
      output:
        `${body}\n\n(Showing lines ${start}-${last} of ${total}: the output limit was reached. ` +
        `Read on with start_line=${last + 1}.)`,
      display: `lines ${start}-${last} of ${total}`,
      isError: false,
    };
  }
  if (start === 1 && last === total)
    return { output: body, display: pluralize(total, 'line'), isError: false };
  return {
    output: `${body}\n\n(Lines ${start}-${last} of ${total}.)`,
    display: `lines ${start}-${last} of ${total}`,
    isError: false,
  };
}

function shortenLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more characters on this line]`;
}

async function missingFile(ctx: ToolContext, absolute: string, shown: string): Promise<ToolResult> {
  const folder = path.dirname(absolute);
  const entries = await readdir(folder).catch(() => null);
  if (entries === null) {
    return refuse(
      `${shown} does not exist, and neither does its folder ${ctx.workspace.relative(folder)}. ` +
        'Find the right path with search_code or run_command (ls, find).',
      'not found',
    );
  }
  const similar = mostSimilar(path.basename(absolute).toLowerCase(), entries, {
    textOf: (name) => name.toLowerCase(),
    limit: MAX_NAME_SUGGESTIONS,
    minScore: MIN_NAME_SIMILARITY,
  }).map((name) => ctx.workspace.relative(path.join(folder, name)));
  const suggestion =
    similar.length > 0
      ? ` Did you mean: ${similar.join(', ')}?`
      : ' Find the right path with search_code or run_command (ls, find).';
  return refuse(`${shown} does not exist.${suggestion}`, 'not found');
}
