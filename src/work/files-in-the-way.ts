import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { git } from './git.js';

/** git's id for "no such file" on one side of a raw diff. */
const NO_OBJECT = /^0+$/;
const SYMLINK_MODE = '120000';
const SUBMODULE_MODE = '160000';

/** A path of the user's tree with what the commit says it is (mode and blob, absent as NO_OBJECT). */
interface CommittedEntry {
  path: string;
  mode: string;
  blob: string;
}

/**
 * The files of the user's checkout that a move from `head` to `tree` would overwrite or remove
 * although they differ from `head`: changed tracked files, untracked and ignored ones (git
 * overwrites an ignored file without asking), a folder or link where the tree puts a file, and a
 * file or link where the tree needs a folder. Sorted, relative to `top`. A file that is missing
 * loses nothing and is not named.
 */
export async function filesInTheWay(options: { top: string; head: string; tree: string }): Promise<string[]> {
  const { top } = options;
  const raw = await git(['diff', '--raw', '-z', '--no-renames', '--no-abbrev', options.head, options.tree], {
    cwd: top,
  });
  const entries = parseRaw(raw.toString('utf8'));
  const changed = new Set(entries.map((entry) => entry.path));
  const inTheWay = new Set<string>();
  const toHash: CommittedEntry[] = [];
  for (const entry of entries) {
    for (const parent of parentsOf(entry.path)) {
      if (changed.has(parent)) continue;
      const info = await lstat(path.join(top, parent)).catch(() => undefined);
      if (info && !info.isDirectory()) inTheWay.add(parent);
    }
    if (entry.mode === SUBMODULE_MODE) continue;
    const absolute = path.join(top, entry.path);
    const info = await lstat(absolute).catch(() => undefined);
    if (!info) continue;
    if (NO_OBJECT.test(entry.blob) || info.isDirectory()) inTheWay.add(entry.path);
    else if (info.isSymbolicLink()) {
      const committed = entry.mode === SYMLINK_MODE ? await blobText(top, entry.blob) : undefined;
      if (committed !== (await readlink(absolute))) inTheWay.add(entry.path);
    } else if (entry.mode === SYMLINK_MODE || !info.isFile()) inTheWay.add(entry.path);
    else toHash.push(entry);
  }
  if (toHash.length > 0) {
    // One git for every file: hashed as `git add` would (the path's filters applied).
    const hashes = (
      await git(['hash-object', '--stdin-paths'], {
        cwd: top,
        input: `${toHash.map((entry) => entry.path).join('\n')}\n`,
      })
    )
      .toString('utf8')
      .split('\n');
    toHash.forEach((entry, index) => {
      if (hashes[index] !== entry.blob) inTheWay.add(entry.path);
    });
  }
  return [...inTheWay].sort();
}

/** `:oldmode newmode oldblob newblob status\0path\0`, repeated: each path with its `head` side. */
function parseRaw(printed: string): CommittedEntry[] {
  const parts = printed.split('\0');
  const entries: CommittedEntry[] = [];
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const [mode, , blob] = (parts[index] ?? '').slice(1).split(' ');
    const file = parts[index + 1];
    if (mode === undefined || blob === undefined || !file) continue;
    entries.push({ path: file, mode, blob });
  }
  return entries;
}

/** `a`, `a/b` for `a/b/c`. */
function parentsOf(file: string): string[] {
  const names = file.split('/');
  return names.slice(0, -1).map((_, index) => names.slice(0, index + 1).join('/'));
}

async function blobText(top: string, blob: string): Promise<string> {
  return (await git(['cat-file', 'blob', blob], { cwd: top })).toString('utf8');
}
