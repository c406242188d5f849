import path from 'node:path';
import { scriptPathFromShell } from './script-path.js';

/** The options of the session that the command continuing it must repeat. */
export interface SessionOrigin {
  cwd: string;
  db?: string;
  model?: string;
  baseUrl?: string;
}

/**
 * The line printed when the interactive session ends (quit, Ctrl-C): the command that opens it
 * again with its conversation, with the workspace, database and model it was started with.
 */
export function continueHint(origin: SessionOrigin): string {
  const words = ['taskweave', '-c'];
  if (path.resolve(origin.cwd) !== process.cwd()) words.push('-C', path.resolve(origin.cwd));
  if (origin.db !== undefined) words.push('--db', path.resolve(origin.db));
  if (origin.model !== undefined) words.push('--model', scriptPathFromShell(origin.model) ?? origin.model);
  if (origin.baseUrl !== undefined) words.push('--base-url', origin.baseUrl);
  return `To continue this session: ${words.map(shellWord).join(' ')}`;
}

/** A word as a shell reads it back: plain when safe, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
