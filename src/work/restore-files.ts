import { randomBytes } from 'node:crypto';
import { lstat, mkdir, realpath, rename, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from '../store/rows.js';
import type { BlobStore } from './blob-store.js';
import { type FileState, MODE_EXECUTABLE, MODE_LINK, readFileState } from './file-state.js';

/** The name a file being restored has until it is renamed into place. */
export const RESTORE_TEMP_PREFIX = '.taskweave-restore-';

/** Which way a restore goes: back to before the changes (undo, rewind) or forward again (redo). */
export type RestoreDirection = 'back' | 'forward';

/** A file a restore put back: created, written over, deleted, or already as wanted (an interrupted restore's). */
export interface RestoredFile {
  path: string;
  action: 'created' | 'written' | 'deleted' | 'unchanged';
}

/** A file a restore left alone: its content is not what taskweave left there. */
export interface RestoreConflict {
  path: string;
  reason: string;
}

export interface RestoreFilesOptions {
  root: string;
  /** The changes to take back or put again, oldest first. */
  changes: FileChange[];
  direction: RestoreDirection;
  /** Every change record of the session, to name who changed a file later. */
  all: FileChange[];
  /** The content store of each kind the changes use. */
  blobs: (kind: FileChange['blobStore']) => BlobStore;
  /** Overwrite files whose content is not what taskweave left. */
  force: boolean;
  /** How a later change is named in a conflict (its checkpoint, step and task). */
  describe: (change: FileChange) => string;
}

export interface RestoreFilesResult {
  files: RestoredFile[];
  conflicts: RestoreConflict[];
  /** The change records whose files are as wanted now. */
  doneIds: number[];
}

/**
 * Puts files back per file, never a whole tree: each file is restored only where its content is
 * still what the changes left (or, forward, what they found), else it is a conflict and left as it
 * is unless `force`. Each file is replaced atomically (a temporary file renamed over it), so a
 * kill leaves it before or after; a file already as wanted counts as restored, so that running
 * the same restore again completes an interrupted one.
 */
export async function restoreFiles(options: RestoreFilesOptions): Promise<RestoreFilesResult> {
  const byPath = new Map<string, FileChange[]>();
  for (const change of options.changes) {
    const list = byPath.get(change.path);
    if (list) list.push(change);
    else byPath.set(change.path, [change]);
  }
  const rootReal = await realpath(options.root);
  const result: RestoreFilesResult = { files: [], conflicts: [], doneIds: [] };
  for (const [file, changes] of byPath) {
    const first = changes[0] as FileChange;
    const last = changes[changes.length - 1] as FileChange;
    const [expected, wanted] =
      options.direction === 'back'
        ? [state(last.afterId, last.afterMode), state(first.beforeId, first.beforeMode)]
        : [state(first.beforeId, first.beforeMode), state(last.afterId, last.afterMode)];
    const blobs = options.blobs(first.blobStore);
    const absolute = path.join(options.root, file);
    const current = await readFileState(absolute);
    const ids = changes.map((change) => change.id);
    if (same(current, wanted, blobs)) {
      result.files.push({ path: file, action: 'unchanged' });
      result.doneIds.push(...ids);
      continue;
    }
    if (!options.force && !same(current, expected, blobs)) {
      result.conflicts.push({ path: file, reason: conflictReason(current, last, options) });
      continue;
    }
    await putState(rootReal, options.root, file, wanted, blobs);
    result.files.push({
      path: file,
      action: wanted === null ? 'deleted' : current === null ? 'created' : 'written',
    });
    result.doneIds.push(...ids);
  }
  return result;
}

type Wanted = { id: string; mode: number } | null;

function state(id: string | null, mode: number | null): Wanted {
  return id === null ? null : { id, mode: mode ?? 0o100644 };
}

function same(current: FileState | undefined, wanted: Wanted, blobs: BlobStore): boolean {
  if (current === undefined) return false;
  if (current === null || wanted === null) return current === wanted;
  return current.mode === wanted.mode && blobs.idOf(current.content) === wanted.id;
}

function conflictReason(
  current: FileState | undefined,
  last: FileChange,
  options: RestoreFilesOptions,
): string {
  const later = options.all.find(
    (change) =>
      change.path === last.path &&
      change.id > last.id &&
      change.undoneBy === null &&
      !options.changes.includes(change),
  );
  const now = current === undefined ? 'is not a file now' : current === null ? 'was deleted' : 'was changed';
  if (later) return `${now} later by ${options.describe(later)}`;
  return `${now} since taskweave left it (by you or another program)`;
}

/** Writes (or deletes) one file inside the workspace, atomically. */
async function putState(
  rootReal: string,
  root: string,
  file: string,
  wanted: Wanted,
  blobs: BlobStore,
): Promise<void> {
  const absolute = path.join(root, file);
  const folder = path.dirname(absolute);
  if (wanted === null) {
    await confine(rootReal, folder);
    await rm(absolute, { force: true });
    await removeEmptyFolders(root, folder);
    return;
  }
  await makeFolderConfined(rootReal, folder);
  const content = await blobs.get(wanted.id);
  const temporary = path.join(folder, `${RESTORE_TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    if (wanted.mode === MODE_LINK) await symlink(content.toString('utf8'), temporary);
    else
      await writeFile(temporary, content, {
        mode: wanted.mode === MODE_EXECUTABLE ? 0o755 : 0o644,
        flag: 'wx',
      });
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Refuses a folder that is not inside the workspace (a folder swapped for a link to elsewhere).
 * With `mustExist`, a folder that cannot be resolved (a link leading nowhere) is refused too.
 */
async function confine(
  rootReal: string,
  folder: string,
  options: { mustExist?: boolean } = {},
): Promise<void> {
  const real = await realpath(folder).catch(() => null);
  if (real === null) {
    if (!options.mustExist) return;
    throw new Error(`${folder} leads nowhere (a link to a missing folder?); nothing is restored there.`);
  }
  if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
    throw new Error(`${folder} leads outside the workspace (${real}); nothing is restored there.`);
  }
}

/**
 * Makes a file's folder and the missing ones above it, each only inside a folder just found to be
 * inside the workspace: a folder on the way swapped for a link to elsewhere is refused before
 * anything is created there (`mkdir -p` would create the rest wherever the link leads).
 */
async function makeFolderConfined(rootReal: string, folder: string): Promise<void> {
  const missing: string[] = [];
  let existing = folder;
  while ((await lstat(existing).catch(() => null)) === null) {
    missing.unshift(existing);
    existing = path.dirname(existing);
  }
  await confine(rootReal, existing, { mustExist: true });
  for (const next of missing) {
    await mkdir(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await confine(rootReal, next, { mustExist: true });
  }
}

/** Removes the folders a deleted file leaves empty, up to the workspace root. */
async function removeEmptyFolders(root: string, folder: string): Promise<void> {
  let current = folder;
  while (current !== root && current.startsWith(root + path.sep)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
