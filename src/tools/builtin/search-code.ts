import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { builtSchema } from '../built-schemas.js';
import { defineTool } from '../define-tool.js';
import { pluralize } from '../text/text-lines.js';
import type { ToolResult } from '../types.js';

/** The most matching lines one search returns; the rest are counted. */
export const MAX_SEARCH_MATCHES = 100;
/** Matching lines longer than this are shortened around the match. */
export const MAX_MATCH_LINE_CHARS = 200;
/** How much of a line before the match is kept when a long line is shortened. */
const MATCH_LEAD_CHARS = 60;
/**
 * ripgrep itself cuts lines at this width, so one huge minified line cannot flood memory; a match
 * further right is still counted but shown without its text.
 */
const RIPGREP_MAX_COLUMNS = 100_000;
/** A search that takes longer is ended and reported with what it found so far. */
export const SEARCH_TIMEOUT_MS = 60_000;
/** Folders never searched: git's internals and taskweave's own state. */
const EXCLUDED_FOLDERS = ['.git', '.taskweave'];

let ripgrep: string | undefined;

/**
 * The ripgrep binary @vscode/ripgrep ships, looked up when a search first runs: resolving the
 * package costs a launch ~5 ms that a run which never searches need not pay.
 */
function ripgrepPath(): string {
  ripgrep ??= (createRequire(import.meta.url)('@vscode/ripgrep') as { rgPath: string }).rgPath;
  return ripgrep;
}

// Made when first used (a call checked, or the JSON Schema converted when the code runs from its
// sources): a run sends the build's JSON Schema (built-schemas.ts) before any call.
const parameters = z.lazy(() =>
  z.object({
    pattern: z.string().min(1).describe('Regular expression (Rust syntax); (?i) for case-insensitive.'),
    file_pattern: z
      .string()
      .min(1)
      .optional()
      .describe('Glob of the files to search, e.g. "*.ts", "!*.test.ts".'),
  }),
);

/** search_code: ripgrep over the workspace, honouring .gitignore, returning `path:line: text`. */
export const searchCodeTool = defineTool({
  name: 'search_code',
  description: `Regex search (ripgrep) of the workspace; returns up to ${MAX_SEARCH_MATCHES} \`path:line: text\` lines. Skips .git and what .gitignore ignores.`,
  whenToUse:
    'Finding where something is defined or used, or which files a change touches; narrow with file_pattern, then read_file near the lines given.',
  whenNotToUse: 'Reading a known file (read_file), listing a folder (run_command).',
  parameters: builtSchema('search_code', parameters),
  readOnly: true,
  async execute(args, ctx) {
    const search = await runRipgrep({
      args: ripgrepArguments(args.pattern, args.file_pattern),
      cwd: ctx.workspace.root,
      signal: ctx.signal,
      highlight: highlighterFor(args.pattern),
    });
    return report(search, args);
  },
});

/** The ripgrep command line of one search (exported for bench/search, which runs it raw). */
export function ripgrepArguments(pattern: string, filePattern: string | undefined): string[] {
  return [
    '--no-config',
    '--no-require-git',
    '--hidden',
    '--null',
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--color=never',
    '--sort=path',
    `--max-columns=${RIPGREP_MAX_COLUMNS}`,
    '--max-columns-preview',
    // Later globs win in ripgrep: the exclusions come after the caller's glob so "*" cannot undo them.
    ...(filePattern === undefined ? [] : ['--glob', filePattern]),
    ...EXCLUDED_FOLDERS.flatMap((folder) => ['--glob', `!${folder}`]),
    '--regexp',
    pattern,
    '--',
    '.',
  ];
}

interface SearchResult {
  /** The first matches, formatted. */
  shown: string[];
  total: number;
  files: Set<string>;
  /** Files holding matches that were not shown. */
  filesLeftOut: Set<string>;
  exitCode: number | null;
  stderr: string;
  ended: 'finished' | 'stopped' | 'timed_out';
}

function runRipgrep(options: {
  args: string[];
  cwd: string;
  signal: AbortSignal;
  highlight: RegExp | null;
}): Promise<SearchResult> {
  return new Promise((resolve, reject) => {
    const result: SearchResult = {
      shown: [],
      total: 0,
      files: new Set(),
      filesLeftOut: new Set(),
      exitCode: null,
      stderr: '',
      ended: 'finished',
    };
    const child = spawn(ripgrepPath(), options.args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const end = (how: SearchResult['ended']): void => {
      if (result.ended === 'finished') result.ended = how;
      child.kill('SIGTERM');
    };
    const timeout = setTimeout(() => end('timed_out'), SEARCH_TIMEOUT_MS);
    const onAbort = (): void => end('stopped');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) addMatch(result, line, options.highlight);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      result.stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timeout);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timeout);
      options.signal.removeEventListener('abort', onAbort);
      if (partial !== '') addMatch(result, partial, options.highlight);
      result.exitCode = code;
      resolve(result);
    });
  });
}

/** Parses one line of `rg --null --line-number` output: `path\0line:text`. */
function addMatch(result: SearchResult, raw: string, highlight: RegExp | null): void {
  const nul = raw.indexOf('\0');
  const colon = raw.indexOf(':', nul + 1);
  if (nul === -1 || colon === -1) return;
  const file = raw.slice(0, nul).replace(/^\.\//, '');
  const lineNumber = raw.slice(nul + 1, colon);
  result.total++;
  result.files.add(file);
  if (result.shown.length < MAX_SEARCH_MATCHES) {
    result.shown.push(`${file}:${lineNumber}: ${shortenAroundMatch(raw.slice(colon + 1).trim(), highlight)}`);
  } else {
    result.filesLeftOut.add(file);
  }
}

/** The pattern as a JavaScript regex, to find the match in a long line; null when JS cannot parse it. */
function highlighterFor(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

function shortenAroundMatch(text: string, highlight: RegExp | null): string {
  if (text.length <= MAX_MATCH_LINE_CHARS) return text;
  const matchAt = highlight?.exec(text)?.index ?? 0;
  const start = Math.max(0, Math.min(matchAt - MATCH_LEAD_CHARS, text.length - MAX_MATCH_LINE_CHARS));
  const end = start + MAX_MATCH_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

function report(search: SearchResult, args: { pattern: string; file_pattern?: string }): ToolResult {
  const scope = args.file_pattern === undefined ? '' : ` in files matching ${args.file_pattern}`;
  if (search.ended === 'stopped') {
    return { output: 'The search was stopped by the user.', display: 'stopped by the user', isError: true };
  }
  // Exit code 2 with matches means some files could not be read; the matches still stand.
  if (search.exitCode === 2 && search.total === 0) {
    return {
      output:
        `The search failed: ${search.stderr.trim()}\nThe pattern is a Rust regular expression; escape ` +
        'characters such as ( ) [ ] { } . * + ? | \\ with a backslash to match them literally.',
      display: 'invalid search',
      isError: true,
    };
  }
  if (search.total === 0) {
    const incomplete =
      search.ended === 'timed_out' ? ` (the search timed out after ${SEARCH_TIMEOUT_MS / 1000}s)` : '';
    return {
      output: `No matches for /${args.pattern}/${scope}${incomplete}.`,
      display: 'no matches',
      isError: false,
    };
  }
  const summary = `${pluralize(search.total, 'match', 'matches')} in ${pluralize(search.files.size, 'file')}`;
  const notes: string[] = [];
  const leftOut = search.total - search.shown.length;
  if (leftOut > 0) {
    notes.push(
      `${search.shown.length} of ${search.total} matches shown; ${pluralize(leftOut, 'more match', 'more matches')} ` +
        `in ${pluralize(search.filesLeftOut.size, 'file')} were left out. Narrow the pattern or set file_pattern to see them.`,
    );
  }
  if (search.ended === 'timed_out') {
    notes.push(`The search timed out after ${SEARCH_TIMEOUT_MS / 1000}s; there may be more matches.`);
  }
  if (search.exitCode === 2 && search.stderr.trim() !== '') {
    notes.push(
      `Some files could not be searched: ${search.stderr.trim().split('\n').slice(0, 3).join('; ')}`,
    );
  }
  return {
    output: [search.shown.join('\n'), ...notes].join('\n\n'),
    display: search.ended === 'timed_out' ? `${summary} (timed out)` : summary,
    isError: false,
  };
}
