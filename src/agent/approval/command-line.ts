import path from 'node:path';
import { parse } from 'shell-quote';

/** The most words an "always" prefix keeps (`npm run build`). */
export const MAX_PREFIX_WORDS = 3;

/**
 * Characters that make a line more than one plain command even where the parser would not
 * say so: bash runs each line of a multi-line string, and command substitution in any form.
 */
const HIDDEN_COMMAND = /[\n\r`]|\$\(|<\(|>\(/;

/** A command line is simple when it is one program with plain words: no operators at all. */
export type ParsedCommand = { simple: true; words: string[] } | { simple: false; why: string };

/**
 * Parses a command line for the allow list. Anything but one plain command is refused:
 * `;`, `&&`, `||`, `|`, `&`, redirections, subshells, `$(…)` and backticks, variables, globs,
 * comments, several lines, and leading `NAME=value` assignments.
 */
export function parseSimpleCommand(line: string): ParsedCommand {
  if (HIDDEN_COMMAND.test(line)) return { simple: false, why: 'it runs more than one command' };
  const tokens = parse(line, (name) => ({ variable: name }));
  const words: string[] = [];
  for (const token of tokens) {
    if (typeof token !== 'string') return { simple: false, why: describeToken(token) };
    words.push(token);
  }
  if (words.length === 0) return { simple: false, why: 'it is empty' };
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? ''))
    return { simple: false, why: 'it sets environment variables' };
  return { simple: true, words };
}

function describeToken(token: object): string {
  if ('op' in token) {
    const op = String(token.op);
    if (op === 'glob') return 'it uses a file pattern';
    if (op === '(' || op === ')') return 'it uses a subshell';
    if (/[<>]/.test(op)) return 'it redirects input or output';
    return `it chains commands with \`${op}\``;
  }
  if ('comment' in token) return 'it has a comment';
  return 'it uses a variable';
}

/** Whether the command's words begin with the entry's words (an allow entry, or an "always" prefix). */
export function startsWithWords(words: string[], entry: string[]): boolean {
  return (
    entry.length > 0 && entry.length <= words.length && entry.every((word, index) => words[index] === word)
  );
}

/** An allow or deny entry of the config as words (`"npm test"` → npm, test). */
export function entryWords(entry: string): string[] {
  return parse(entry).filter((token): token is string => typeof token === 'string');
}

/**
 * Each plain command a line runs, as words, for the deny list: the line split at every operator,
 * subshell and backtick, leading `NAME=value` assignments dropped, the program by its base name
 * (`/usr/bin/git push` is `git push`). Commands inside `bash -c '…'`, `eval` or scripts are not seen.
 */
export function commandsOf(line: string): string[][] {
  const tokens = parse(line.replace(/[`\n\r]/g, ' ; ').replace(/\$\(/g, ' ( '), (name) => ({
    variable: name,
  }));
  const commands: string[][] = [];
  let current: string[] = [];
  const flush = () => {
    while (current.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(current[0] ?? '')) current.shift();
    if (current.length > 0) commands.push([path.basename(current[0] ?? ''), ...current.slice(1)]);
    current = [];
  };
  for (const token of tokens) {
    if (typeof token === 'string') current.push(token);
    else if ('op' in token && token.op !== 'glob') flush();
  }
  flush();
  return commands;
}

/**
 * The prefix an "always" answer remembers for a simple command: the program and the words after
 * it up to the first option, path or value (`npm run build`, `git status`, `ls`), at most
 * MAX_PREFIX_WORDS; undefined for a line that is not simple (then only the exact line is remembered).
 */
export function alwaysPrefix(line: string): string[] | undefined {
  const parsed = parseSimpleCommand(line);
  if (!parsed.simple) return undefined;
  const [program, ...rest] = parsed.words;
  const prefix = [program ?? ''];
  for (const word of rest) {
    if (prefix.length >= MAX_PREFIX_WORDS || !/^[a-z][a-z0-9:_-]*$/i.test(word)) break;
    prefix.push(word);
  }
  return prefix;
}
