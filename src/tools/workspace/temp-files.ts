import { randomBytes } from 'node:crypto';
import { type Dirent, promises as fs } from 'node:fs';
import path from 'node:path';
import { isProcessGone } from '../../util/process-gone.js';

/** The suffix of every temporary file of an atomic write. */
export const TEMP_SUFFIX = '.taskweave-tmp';
/** A temporary file without a process id (an older taskweave) counts as left over after this long. */
export const STALE_TEMP_AGE_MS = 10 * 60_000;
/** The most directory entries a clean-up looks at: a huge tree is not walked to its end. */
export const TEMP_SCAN_ENTRY_LIMIT = 500_000;
/** Folders a clean-up does not enter: taskweave's own store, and git's. */
const SKIPPED_FOLDERS = new Set(['.git', '.taskweave']);

const NAMED = /^\..+\.(\d+)-[0-9a-f]{12}\.taskweave-tmp$/;
const UNNAMED = /^\..+\.[0-9a-f]{12}\.taskweave-tmp$/;

/**
 * The temporary file an atomic write of `target` writes first, in the same folder. Its name
 * carries this process's id, so that a later process can tell a temporary file of a killed
 * writer (removed) from one a live process is writing (left alone).
 */
export function tempPathFor(target: string): string {
  const name = `.${path.basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
  return path.join(path.dirname(target), name);
}

/** Whether a file of this name is an atomic write's temporary file whose writer is gone. */
function isLeftOver(name: string, mtimeMs: () => Promise<number>): Promise<boolean> {
  const named = NAMED.exec(name);
  if (named) return Promise.resolve(isProcessGone(Number(named[1])));
  if (!UNNAMED.test(name)) return Promise.resolve(false);
  return mtimeMs().then((time) => Date.now() - time > STALE_TEMP_AGE_MS);
}

/**
 * Removes the temporary files that atomic writes of killed processes left in the workspace
 * (`.<name>.<pid>-<random>.taskweave-tmp`); the target files themselves were never touched by
 * them. Returns the removed files, relative to the root.
 */
export async function removeLeftOverTempFiles(root: string): Promise<string[]> {
  const removed: string[] = [];
  const folders = [root];
  let seen = 0;
  while (folders.length > 0 && seen < TEMP_SCAN_ENTRY_LIMIT) {
    const folder = folders.pop() as string;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      continue; // gone or unreadable meanwhile: nothing of ours to remove there
    }
    for (const entry of entries) {
      seen += 1;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(full);
      } else if (entry.isFile() && entry.name.endsWith(TEMP_SUFFIX)) {
        if (await isLeftOver(entry.name, async () => (await fs.stat(full)).mtimeMs)) {
          await fs.rm(full, { force: true });
          removed.push(path.relative(root, full));
        }
      }
    }
  }
  return removed.sort();
}
