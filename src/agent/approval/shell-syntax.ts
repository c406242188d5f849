import { createRequire } from 'node:module';
import type { Parser, Node as SyntaxNode } from 'web-tree-sitter';

/**
 * The longest command line that is parsed (in UTF-16 code units). Longer lines are not
 * checked word by word: they are asked, never allowed by a list. Parsing is linear, but a
 * 10 MB line still takes seconds; no command a model writes by hand comes near this (a file is
 * written with write_file).
 */
export const MAX_PARSED_CHARS = 64 * 1024;

/** A word of a command: its text after quote removal, or undefined when only bash knows it. */
export type ShellWord = string | undefined;

/** One simple command found anywhere in a line (in a list, pipeline, block, loop, substitution…). */
export interface ShellCommand {
  /** The program and its arguments; leading `NAME=value` assignments are not words. */
  words: ShellWord[];
}

/** A span of the line, [start, end) in UTF-16 code units. */
export type Span = [number, number];

/** A command line as bash would read it, reduced to what the approval rules look at. */
export type ShellLine =
  | {
      parsed: true;
      /** Every simple command the line runs, in source order, nested ones included. */
      commands: ShellCommand[];
      /**
       * The words, when the line is one plain command: no operator, redirection, assignment,
       * substitution, expansion, glob, comment or second line.
       */
      plain?: string[];
      /** Where the line's operators are (`&&`, `||`, `|`, `;`, `&`, `$(`, backticks…), for display. */
      operators: Span[];
    }
  | { parsed: false; why: string; operators: Span[] };

/** The tokens marked in a command shown for approval: they join or start other commands. */
const OPERATOR_TOKENS = new Set(['&&', '||', '|', '|&', ';', ';;', ';&', ';;&', '&', '$(', '`', '<(', '>(']);

/** What bash expands in an unquoted word: globs, brace expansion (`{a,b}`, `{1..3}`), a leading tilde. */
const EXPANDED_IN_WORD = /[*?[]|\{[^}]*(,|\.\.)[^}]*\}|^~/;

let loading: Promise<Parser> | undefined;

/**
 * The bash parser (tree-sitter's bash grammar, compiled to WebAssembly), loaded on first use:
 * runs that never check a command never pay for it (about 30 ms).
 */
export function loadShellParser(): Promise<Parser> {
  loading ??= (async () => {
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init();
    const grammar = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    const parser = new Parser();
    parser.setLanguage(await Language.load(grammar));
    return parser;
  })();
  // A failed load is tried again next time rather than remembered.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Reads a command line with a real bash grammar. Never throws: a line that is too long, not
 * valid shell, or cannot be parsed for any other reason comes back `parsed: false` with why.
 */
export function readShellLine(parser: Parser, line: string): ShellLine {
  if (line.length > MAX_PARSED_CHARS)
    return { parsed: false, why: `it is too long to check (${line.length} characters)`, operators: [] };
  let tree: ReturnType<Parser['parse']> = null;
  try {
    tree = parser.parse(line);
    if (!tree) return { parsed: false, why: 'the shell parser gave no result', operators: [] };
    return fromTree(tree.rootNode, line);
  } catch (error) {
    return {
      parsed: false,
      why: `the shell parser failed (${error instanceof Error ? error.message : String(error)})`,
      operators: [],
    };
  } finally {
    tree?.delete();
  }
}

function fromTree(root: SyntaxNode, line: string): ShellLine {
  const operators: Span[] = [];
  const commandNodes: SyntaxNode[] = [];
  let error: SyntaxNode | undefined;
  // Walked with a cursor, not recursion: nesting depth is the line's to choose.
  const cursor = root.walk();
  try {
    let done = false;
    while (!done) {
      const type = cursor.nodeType;
      if (!cursor.nodeIsNamed && OPERATOR_TOKENS.has(type))
        operators.push([cursor.startIndex, cursor.endIndex]);
      if (type === 'command') commandNodes.push(cursor.currentNode);
      if ((type === 'ERROR' || cursor.nodeIsMissing) && error === undefined) error = cursor.currentNode;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          done = true;
          break;
        }
      }
    }
  } finally {
    cursor.delete();
  }
  if (error !== undefined || root.hasError) {
    const at = error?.startIndex ?? 0;
    const near = line.slice(at, at + 20).split('\n')[0] ?? '';
    const where = near.trim() === '' ? 'at its end' : `near \`${near}\`, character ${at + 1}`;
    return { parsed: false, why: `it is not valid shell syntax (${where})`, operators };
  }
  const read = commandNodes.map(commandWords);
  const only =
    read.length === 1 && root.childCount === 1 && root.child(0)?.type === 'command' ? read[0] : undefined;
  const plain = only?.plain ? (only.words as string[]) : undefined;
  return {
    parsed: true,
    commands: read.map(({ words }) => ({ words })),
    operators,
    ...(plain ? { plain } : {}),
  };
}

/**
 * The program and arguments of a `command` node (assignments and redirections left out), in
 * one pass over its children; `plain` when it has nothing but words whose text is known.
 */
function commandWords(command: SyntaxNode): { words: ShellWord[]; plain: boolean } {
  const words: ShellWord[] = [];
  let plain = true;
  for (const child of command.namedChildren) {
    if (child === null) continue;
    const type = child.type;
    if (type === 'variable_assignment' || type.endsWith('_redirect') || type === 'comment') {
      plain = false;
      continue;
    }
    const word = staticText(type === 'command_name' ? (child.namedChildren[0] ?? null) : child);
    if (word === undefined) plain = false;
    words.push(word);
  }
  return { words, plain: plain && words.length > 0 };
}

/**
 * A word's text after quote removal, when it is known without running anything: plain words,
 * single-quoted and plain double-quoted strings, and concatenations of them. Anything bash
 * expands (variables, substitutions, globs, braces, `~`, `$'…'`) is undefined.
 */
function staticText(node: SyntaxNode | null): ShellWord {
  if (node === null) return undefined;
  switch (node.type) {
    case 'word': {
      if (EXPANDED_IN_WORD.test(node.text.replace(/\\./gs, ''))) return undefined;
      return node.text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    }
    case 'number':
      return /^[0-9]+$/.test(node.text) ? node.text : undefined;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      let text = '';
      for (const part of node.namedChildren) {
        if (part?.type !== 'string_content') return undefined;
        text += part.text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
      }
      return text;
    }
    case 'concatenation': {
      // Brace expansion spans the parts (`{a,b}` is `{`, `a,b`, `}`); quoted braces are taken as expanded too.
      if (EXPANDED_IN_WORD.test(node.text.replace(/\\./gs, ''))) return undefined;
      let text = '';
      for (const part of node.children) {
        const piece = staticText(part);
        if (piece === undefined) return undefined;
        text += piece;
      }
      return text;
    }
    default:
      return undefined;
  }
}
