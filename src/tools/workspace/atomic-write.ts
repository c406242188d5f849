import { constants, lstat, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { openFolderConfined } from './confined-open.js';
import { tempPathFor } from './temp-files.js';
import type { Workspace } from './workspace.js';

/** O_NOFOLLOW: a link put in the temp file's place is never written through. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Where and how writeFileAtomic writes. */
export interface AtomicWriteOptions {
  /** The workspace the target is in (a path from Workspace.resolveForWrite). */
  workspace: Workspace;
  /** Create missing folders on the way to the target. */
  createFolders?: boolean;
}

/**
 * Writes a file so that readers see either the old content or the new, never half of it: the
 * content goes to a temporary file in the same folder (same file system), which is then renamed
 * over the target. An existing file keeps its permissions. The folder is held open by descriptor
 * (openFolderConfined) and the temp file and the rename go through it, so a folder swapped for a
 * symbolic link meanwhile cannot send either outside the workspace.
 */
export async function writeFileAtomic(
  target: string,
  content: string,
  options: AtomicWriteOptions,
): Promise<void> {
  const temporary = tempPathFor(target);
  const folder = await openFolderConfined(options.workspace, path.dirname(target), {
    purpose: 'write',
    create: options.createFolders,
  });
  try {
    const temporaryInFolder = folder.at(path.basename(temporary));
    const targetInFolder = folder.at(path.basename(target));
    const existing = await lstat(targetInFolder).catch(() => null);
    const existingMode = existing?.isFile() ? existing.mode & 0o7777 : undefined;
    try {
      const handle = await open(temporaryInFolder, TEMP_FLAGS, existingMode ?? 0o666);
      try {
        await handle.writeFile(content, 'utf8');
        // The umask narrows the mode given to open; an existing file's permissions are kept exactly.
        if (existingMode !== undefined) await handle.chmod(existingMode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The folder may have been moved out of the workspace while the content was written.
      await folder.recheck();
      await rename(temporaryInFolder, targetInFolder);
    } catch (error) {
      await rm(temporaryInFolder, { force: true });
      throw error;
    }
  } finally {
    await folder.close();
  }
}
