import path from 'node:path';
import { commandsRun, isWrapper, type ReadLine } from './command-runs.js';
import { loadShellParser, readShellLine, type ShellLine, type ShellWord } from './shell-syntax.js';

/** A command line as the approval rules see it, read once per call. */
export interface CommandLine {
  /** The line as the model gave it. */
  text: string;
  /** What the bash grammar made of it. */
  shell: ShellLine;
  /**
   * Every command the line runs, for the deny list: each simple command anywhere in it, what
   * its wrappers run, `bash -c`/`eval` lines, git without its global options. An undefined word
   * is one taskweave cannot know without running the line.
   */
  runs: ShellWord[][];
}

/**
 * Reads a command line with the bash grammar (loaded on the first call). Never throws: a line
 * that cannot be read comes back with `shell.parsed` false and why.
 */
export async function readCommandLine(text: string): Promise<CommandLine> {
  try {
    const parser = await loadShellParser();
    const shell = readShellLine(parser, text);
    if (!shell.parsed) return { text, shell, runs: [] };
    const readLine: ReadLine = (inner, depth) => {
      const nested = readShellLine(parser, inner);
      if (!nested.parsed) return [[undefined]];
      return nested.commands.flatMap((command) => commandsRun(command.words, readLine, depth));
    };
    return { text, shell, runs: shell.commands.flatMap((command) => commandsRun(command.words, readLine)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      text,
      shell: { parsed: false, why: `it could not be read (${message})`, operators: [] },
      runs: [],
    };
  }
}

/** An allow or deny entry of the config as words (`"npm test"` → npm, test; quotes group words). */
export function entryWords(entry: string): string[] {
  return [...entry.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

/** Whether the command's words begin with the entry's words (an allow entry, or an "always" prefix). */
export function startsWithWords(words: readonly string[], entry: readonly string[]): boolean {
  return (
    entry.length > 0 && entry.length <= words.length && entry.every((word, index) => words[index] === word)
  );
}

/** Whether a command matches a deny entry: surely, perhaps (a word taskweave cannot know), or not. */
export type DenyMatch = 'yes' | 'maybe' | 'no';

/**
 * Matches one command the line runs against a deny entry's words (the program by its base
 * name). Under a wrapper whose options are not all known here, the entry appearing anywhere
 * in its words is a `maybe`.
 */
export function denyMatch(run: readonly ShellWord[], entry: readonly string[]): DenyMatch {
  const direct = matchAt(run, entry, 0);
  if (direct !== 'no') return direct;
  const program = run[0];
  if (program === undefined || !isWrapper(program)) return 'no';
  for (let start = 1; start < run.length; start += 1) {
    if (run[start] !== undefined && matchAt(run, entry, start) !== 'no') return 'maybe';
  }
  return 'no';
}

/** Matches the entry against the run's words from `start` on (the word there as a program). */
function matchAt(run: readonly ShellWord[], entry: readonly string[], start: number): DenyMatch {
  if (entry.length === 0 || start >= run.length) return 'no';
  let unknown = false;
  for (let index = 0; index < entry.length; index += 1) {
    if (start + index >= run.length) return unknown ? 'maybe' : 'no';
    const word = run[start + index];
    if (word === undefined) {
      unknown = true;
      continue;
    }
    const expected = entry[index] ?? '';
    const actual = index === 0 ? path.basename(word) : word;
    if (actual !== (index === 0 ? path.basename(expected) : expected)) return 'no';
  }
  return unknown ? 'maybe' : 'yes';
}
