import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { GIT_FOLDER } from './git-paths.js';
import { TASKWEAVE_FOLDER } from './workspace.js';

/**
 * What a file of git's control plays: a config (`config`, `config.worktree`), a hook, a pointer
 * from a git folder to another (`commondir`), or a `.git` file or link in the tree pointing to
 * its git folder (a worktree, a submodule, or a repository planted anywhere).
 */
export type GitControlRole = 'config' | 'hook' | 'commondir' | 'gitlink';

/** One file of git's control as found: a regular file's content and mode, or a link's target. */
export type GitControlEntry =
  | { role: GitControlRole; kind: 'file'; content: Buffer; mode: number }
  | { role: GitControlRole; kind: 'link'; target: string };

/** The git folders of a workspace and the control files in them, by absolute path. */
export interface GitControlSnapshot {
  gitFolders: Set<string>;
  entries: Map<string, GitControlEntry>;
  /** False when the walk stopped at MAX_WALKED_FOLDERS: what lies beyond was not looked at. */
  complete: boolean;
}

/** The walk of the workspace stops after this many folders (a huge tree is not walked for ever). */
export const MAX_WALKED_FOLDERS = 200_000;
/** How many folders are listed at once. */
const WALK_BATCH = 64;
/** How deep `modules/` (submodules' git folders, whose names may contain slashes) is looked into. */
const MAX_MODULE_DEPTH = 8;
const CONFIG_NAMES = ['config', 'config.worktree'];

/**
 * Finds every git folder in the workspace (each `.git` folder; the targets of `.git` files and
 * links and of `commondir` pointers that lie inside the workspace; their `modules/` and
 * `worktrees/`) and reads what git runs or follows from each: config, config.worktree, commondir
 * and hooks. Only folder listings are walked, without following links; taskweave's own folder
 * (read-only in the sandbox) and the inside of git folders (objects) are not.
 */
export async function snapshotGitControls(root: string): Promise<GitControlSnapshot> {
  const snapshot: GitControlSnapshot = { gitFolders: new Set(), entries: new Map(), complete: true };
  const pending: string[] = [root];
  let next = 0;
  while (next < pending.length) {
    if (next >= MAX_WALKED_FOLDERS) {
      snapshot.complete = false;
      break;
    }
    // Folders are listed a batch at a time, in parallel: the walk is most of a command's overhead.
    const batch = pending.slice(next, next + WALK_BATCH);
    next += batch.length;
    const listings = await Promise.all(batch.map((folder) => listing(folder)));
    for (const [index, folder] of batch.entries()) {
      for (const entry of listings[index] ?? []) {
        const absolute = path.join(folder, entry.name);
        if (entry.name === GIT_FOLDER) {
          if (entry.isDirectory()) await scanGitFolder(root, absolute, snapshot, 0);
          else await recordGitlink(root, absolute, snapshot);
        } else if (entry.isDirectory() && !(folder === root && entry.name === TASKWEAVE_FOLDER)) {
          pending.push(absolute);
        }
      }
    }
  }
  return snapshot;
}

async function scanGitFolder(
  root: string,
  gitFolder: string,
  snapshot: GitControlSnapshot,
  depth: number,
): Promise<void> {
  if (snapshot.gitFolders.has(gitFolder)) return;
  snapshot.gitFolders.add(gitFolder);
  for (const name of CONFIG_NAMES) await record(path.join(gitFolder, name), 'config', snapshot);
  const commondir = path.join(gitFolder, 'commondir');
  const pointer = await record(commondir, 'commondir', snapshot);
  if (pointer !== undefined && pointer !== 'folder' && pointer.kind === 'file')
    await followPointer(root, gitFolder, pointer.content.toString('utf8'), snapshot);
  const hooks = path.join(gitFolder, 'hooks');
  const hooksEntry = await record(hooks, 'hook', snapshot, { folders: true });
  if (hooksEntry === 'folder') {
    for (const hook of await listing(hooks)) await record(path.join(hooks, hook.name), 'hook', snapshot);
  }
  if (depth >= MAX_MODULE_DEPTH) return;
  for (const sub of ['modules', 'worktrees']) {
    for (const entry of await listing(path.join(gitFolder, sub))) {
      if (entry.isDirectory())
        await scanGitFolder(root, path.join(gitFolder, sub, entry.name), snapshot, depth + 1);
    }
  }
}

/** A `.git` file (`gitdir: <path>`) or link in the tree, and the git folder it leads to when inside the workspace. */
async function recordGitlink(root: string, absolute: string, snapshot: GitControlSnapshot): Promise<void> {
  const entry = await record(absolute, 'gitlink', snapshot);
  if (entry === undefined || entry === 'folder') return;
  const target =
    entry.kind === 'link' ? entry.target : /^gitdir:\s*(.*)$/m.exec(entry.content.toString('utf8'))?.[1];
  if (target) await followPointer(root, path.dirname(absolute), target.trim(), snapshot);
}

/** Scans the git folder a pointer names, when it is a real folder inside the workspace. */
async function followPointer(
  root: string,
  from: string,
  target: string,
  snapshot: GitControlSnapshot,
): Promise<void> {
  const real = await realpath(path.resolve(from, target.trim())).catch(() => undefined);
  if (real === undefined || !isInside(root, real)) return;
  if ((await lstat(real).catch(() => undefined))?.isDirectory()) await scanGitFolder(root, real, snapshot, 0);
}

/** Reads one control file into the snapshot (a folder only says so when asked for folders). */
async function record(
  absolute: string,
  role: GitControlRole,
  snapshot: GitControlSnapshot,
  options: { folders?: boolean } = {},
): Promise<GitControlEntry | 'folder' | undefined> {
  const info = await lstat(absolute).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return options.folders ? 'folder' : undefined;
  let entry: GitControlEntry | undefined;
  if (info.isSymbolicLink()) {
    const target = await readlink(absolute).catch(() => undefined);
    if (target !== undefined) entry = { role, kind: 'link', target };
  } else if (info.isFile()) {
    const content = await readFile(absolute).catch(() => undefined);
    if (content !== undefined) entry = { role, kind: 'file', content, mode: info.mode & 0o7777 };
  }
  if (entry !== undefined) snapshot.entries.set(absolute, entry);
  return entry;
}

async function listing(folder: string): Promise<Dirent[]> {
  return readdir(folder, { withFileTypes: true }).catch(() => []);
}

/** Whether `absolute` is the root or inside it. */
export function isInside(root: string, absolute: string): boolean {
  const relative = path.relative(root, absolute);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
