import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The file system's own clock, read by touching a marker file and reading back its change time
 * (ctime). A file's ctime is set by the kernel on every change to its content, mode or name and
 * cannot be set back by a program (unlike mtime: `touch -d`, `tar x`, `cp -p`), and it comes from
 * the same coarse clock as the marker's, so "changed at or after the marker" is exact where a
 * reading of the process's own clock could be a few milliseconds ahead of the file system's.
 */
export function fileSystemNow(folder: string, name: string): bigint {
  const marker = path.join(folder, name);
  try {
    writeFileSync(marker, '');
  } catch {
    mkdirSync(folder, { recursive: true });
    writeFileSync(marker, '');
  }
  return lstatSync(marker, { bigint: true }).ctimeNs;
}

/**
 * Whether the file at `relative` (under `root`) may have changed at or after `since` (a
 * fileSystemNow reading). A file that exists answers by its own ctime; a file that is gone by its
 * nearest folder that still exists, whose ctime moves when an entry is removed from it. Anything
 * that cannot be read counts as changed.
 */
export function changedAtOrAfter(root: string, relative: string, since: bigint): boolean {
  let at = path.join(root, ...relative.split('/'));
  for (;;) {
    try {
      return lstatSync(at, { bigint: true }).ctimeNs >= since;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return true;
    }
    const parent = path.dirname(at);
    if (parent === at || !parent.startsWith(root)) return true;
    at = parent;
  }
}
