import { readdir } from 'node:fs/promises';
import type { Completion } from './line-editor.js';

/** How many names a Tab lists at most (a folder of thousands is not printed whole). */
const MAX_CANDIDATES = 40;
const SLASH_WORD = /^\/(\S*)$/;
const PATH_WORD = /(^|\s)@([^\s@]*)$/;

/**
 * Completes the word before the cursor: a `/command` at the start of the message from the
 * commands' names, an `@path` from the workspace's files (folders end with `/`; hidden ones only
 * when the typed name starts with a dot). Anything else has nothing to complete.
 */
export async function completeWord(options: {
  text: string;
  cursor: number;
  commands: string[];
  /** The absolute path of a folder inside the workspace (throws outside it). */
  resolve: (relative: string) => Promise<string>;
}): Promise<Completion | undefined> {
  const before = options.text.slice(0, options.cursor);
  const slash = SLASH_WORD.exec(before);
  if (slash) {
    const typed = (slash[1] as string).toLowerCase();
    return {
      from: 0,
      candidates: options.commands.filter((name) => name.startsWith(typed)).map((name) => `/${name}`),
    };
  }
  const reference = PATH_WORD.exec(before);
  if (!reference) return undefined;
  const typed = reference[2] as string;
  const from = before.length - typed.length - 1;
  const folder = typed.slice(0, typed.lastIndexOf('/') + 1);
  const name = typed.slice(folder.length);
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await readdir(await options.resolve(folder === '' ? '.' : folder), { withFileTypes: true });
  } catch {
    return undefined;
  }
  const candidates = entries
    .filter((entry) => entry.name.startsWith(name) && (name.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => `@${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`)
    .sort()
    .slice(0, MAX_CANDIDATES);
  return { from, candidates };
}
