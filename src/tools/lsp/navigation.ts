import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FilePlace, LanguageServers } from './language-servers.js';
import { uriOf } from './server-connection.js';

/** What the navigation tool can ask a language server. */
export const NAVIGATIONS = ['definition', 'references', 'hover', 'symbols'] as const;
export type Navigation = (typeof NAVIGATIONS)[number];

/** At most this many locations or symbols are listed. */
export const MAX_NAVIGATION_ENTRIES = 50;
/** How long a navigation request may take (a cold server loads its project first). */
export const NAVIGATION_WAIT_MS = 20_000;

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
}
interface Location {
  uri: string;
  range: Range;
}
interface LocationLink {
  targetUri: string;
  targetSelectionRange: Range;
}
interface DocumentSymbol {
  name: string;
  kind: number;
  range?: Range;
  selectionRange?: Range;
  location?: Location;
  children?: DocumentSymbol[];
}

/**
 * Asks the file's server: where a symbol at a position is defined, where it is used, what it is
 * (hover), or what the file declares. `position` is 1-based; a string says why there is no answer.
 */
export async function navigate(options: {
  servers: LanguageServers;
  place: FilePlace;
  file: string;
  navigation: Navigation;
  position?: { line: number; column: number };
}): Promise<string> {
  const { servers, place, file, navigation } = options;
  const textDocument = { uri: uriOf(file) };
  const position = options.position && {
    line: options.position.line - 1,
    character: options.position.column - 1,
  };
  const ask = <T>(method: string, params: object) =>
    servers.request<T>(file, place, method, { textDocument, ...params }, NAVIGATION_WAIT_MS);
  switch (navigation) {
    case 'definition': {
      const answer = await ask<Location | Location[] | LocationLink[] | null>('textDocument/definition', {
        position,
      });
      if (typeof answer === 'string') return `No answer: ${answer}.`;
      return locationList(toLocations(answer), place, 'No definition found there.');
    }
    case 'references': {
      const answer = await ask<Location[] | null>('textDocument/references', {
        position,
        context: { includeDeclaration: true },
      });
      if (typeof answer === 'string') return `No answer: ${answer}.`;
      return locationList(answer ?? [], place, 'No references found.');
    }
    case 'hover': {
      const answer = await ask<{ contents: unknown } | null>('textDocument/hover', { position });
      if (typeof answer === 'string') return `No answer: ${answer}.`;
      const text = answer === null ? '' : hoverText(answer.contents).trim();
      return text === '' ? 'Nothing is known about that position.' : text;
    }
    case 'symbols': {
      const answer = await ask<DocumentSymbol[] | null>('textDocument/documentSymbol', {});
      if (typeof answer === 'string') return `No answer: ${answer}.`;
      const lines = symbolLines(answer ?? [], 0);
      if (lines.length === 0) return 'The file declares no symbols.';
      return truncated(lines).join('\n');
    }
  }
}

function toLocations(answer: Location | Location[] | LocationLink[] | null): Location[] {
  if (answer === null) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((entry) =>
    'targetUri' in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry,
  );
}

/** `path:line:column: the line's text`, paths relative to the workspace when inside it. */
async function locationList(locations: Location[], place: FilePlace, none: string): Promise<string> {
  if (locations.length === 0) return none;
  const texts = new Map<string, string[] | undefined>();
  const lines: string[] = [];
  for (const location of locations.slice(0, MAX_NAVIGATION_ENTRIES)) {
    const file = fileURLToPath(location.uri);
    if (!texts.has(file))
      texts.set(
        file,
        await readFile(file, 'utf8').then(
          (text) => text.split('\n'),
          () => undefined,
        ),
      );
    const { line, character } = location.range.start;
    const source = texts.get(file)?.[line]?.trim() ?? '';
    const relative = path.relative(place.workspaceRoot, file);
    const shown = relative.startsWith('..') ? file : relative.split(path.sep).join('/');
    lines.push(`${shown}:${line + 1}:${character + 1}: ${source.slice(0, 200)}`);
  }
  return truncated(lines, locations.length).join('\n');
}

function truncated(lines: string[], total = lines.length): string[] {
  const shown = lines.slice(0, MAX_NAVIGATION_ENTRIES);
  return total > shown.length ? [...shown, `… ${total - shown.length} more`] : shown;
}

function hoverText(contents: unknown): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map(hoverText).join('\n');
  if (contents !== null && typeof contents === 'object' && 'value' in contents) return String(contents.value);
  return '';
}

const SYMBOL_KINDS: Record<number, string> = {
  2: 'module',
  3: 'namespace',
  5: 'class',
  6: 'method',
  7: 'property',
  8: 'field',
  9: 'constructor',
  10: 'enum',
  11: 'interface',
  12: 'function',
  13: 'variable',
  14: 'constant',
  22: 'enum member',
  23: 'struct',
  26: 'type parameter',
};

function symbolLines(symbols: DocumentSymbol[], depth: number): string[] {
  return symbols.flatMap((symbol) => {
    const start = (symbol.selectionRange ?? symbol.range ?? symbol.location?.range)?.start;
    const at = start === undefined ? '' : `${start.line + 1}:${start.character + 1} `;
    const kind = SYMBOL_KINDS[symbol.kind] ?? 'symbol';
    return [
      `${'  '.repeat(depth)}${at}${kind} ${symbol.name}`,
      ...symbolLines(symbol.children ?? [], depth + 1),
    ];
  });
}
