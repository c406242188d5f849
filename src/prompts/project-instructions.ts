import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The cross-tool file name for instructions to coding agents. */
export const INSTRUCTIONS_FILE = 'AGENTS.md';
/** Each instructions file is cut to this many characters (a prompt is not a place for a manual). */
export const MAX_INSTRUCTIONS_CHARS = 20_000;

/** One instructions file that was found. */
export interface InstructionsFile {
  /** The absolute path. */
  path: string;
  /** How people read it: `~/.config/taskweave/AGENTS.md`, `AGENTS.md`, `../AGENTS.md`. */
  label: string;
  content: string;
}

/**
 * The AGENTS.md files that apply to a workspace, in the order they go into the prompt (the
 * closer to the workspace, the later, so that it wins): the user's
 * `$XDG_CONFIG_HOME/taskweave/AGENTS.md`, then every folder from the repository root (the
 * nearest parent holding `.git`) down to the workspace. Outside a repository only the workspace's
 * own file counts: a stray AGENTS.md in a parent folder is not the project's.
 */
export function findInstructions(options: {
  workspace: string;
  env?: NodeJS.ProcessEnv;
}): InstructionsFile[] {
  const env = options.env ?? process.env;
  const home = env.HOME || os.homedir();
  const userFile = path.join(
    env.XDG_CONFIG_HOME || path.join(home, '.config'),
    'taskweave',
    INSTRUCTIONS_FILE,
  );
  const found: InstructionsFile[] = [];
  const fromHome = path.relative(home, userFile);
  const user = readInstructions(userFile, fromHome.startsWith('..') ? userFile : `~/${toSlashes(fromHome)}`);
  if (user) found.push(user);
  for (const folder of projectFolders(options.workspace)) {
    const file = path.join(folder, INSTRUCTIONS_FILE);
    if (file === userFile) continue;
    const read = readInstructions(file, toSlashes(path.relative(path.resolve(options.workspace), file)));
    if (read) found.push(read);
  }
  return found;
}

/** The instructions as a section of the system prompt; empty when there are none. */
export function instructionsSection(files: readonly InstructionsFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((file) => `## ${file.label}\n${file.content.trim()}`);
  return [
    '# Project instructions',
    `The user's and the project's instructions (${INSTRUCTIONS_FILE} files). Follow them unless the goal says otherwise; a later file (closer to the workspace) wins over an earlier one.`,
    ...parts,
  ].join('\n\n');
}

/** The workspace and its parents up to the repository root, root first. */
function projectFolders(workspace: string): string[] {
  const chain: string[] = [];
  for (let folder = path.resolve(workspace); ; folder = path.dirname(folder)) {
    chain.unshift(folder);
    if (exists(path.join(folder, '.git'))) return chain;
    if (path.dirname(folder) === folder) return [path.resolve(workspace)];
  }
}

function readInstructions(file: string, label: string): InstructionsFile | undefined {
  let content: string;
  try {
    if (!statSync(file).isFile()) return undefined;
    content = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (content.trim() === '') return undefined;
  if (content.length > MAX_INSTRUCTIONS_CHARS)
    content = `${content.slice(0, MAX_INSTRUCTIONS_CHARS)}\n[… cut: the file has ${content.length} characters]`;
  return { path: file, label, content };
}

function toSlashes(relative: string): string {
  return relative.split(path.sep).join('/');
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
