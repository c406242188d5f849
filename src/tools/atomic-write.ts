import { chmod, open, rename, rm } from 'node:fs/promises';
import { statIfExists } from './stat-if-exists.js';
import { tempPathFor } from './temp-files.js';

/**
 * Writes a file so that readers see either the old content or the new, never half of it: the
 * content goes to a temporary file in the same folder (same file system), which is then renamed
 * over the target. An existing file keeps its permissions. The parent folder must exist.
 */
export async function writeFileAtomic(target: string, content: string): Promise<void> {
  const temporary = tempPathFor(target);
  const existingMode = await statIfExists(target).then((info) => (info ? info.mode & 0o7777 : undefined));
  try {
    const handle = await open(temporary, 'wx', existingMode ?? 0o666);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask narrows the mode given to open; an existing file's permissions are kept exactly.
    if (existingMode !== undefined) await chmod(temporary, existingMode);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
