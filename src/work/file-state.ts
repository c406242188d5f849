import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Git's file modes, as change records keep them. */
export const MODE_FILE = 0o100644;
export const MODE_EXECUTABLE = 0o100755;
export const MODE_LINK = 0o120000;

/** What a path holds, as a change record sees it: content and mode; null when absent. */
export type FileState = { content: Buffer; mode: number } | null;

/**
 * What is at a path now: a file's content and mode, a symbolic link's target (mode 120000), or
 * null when nothing is there. Undefined for what a change record does not keep (a folder, a
 * device).
 */
export async function readFileState(absolute: string): Promise<FileState | undefined> {
  // Synchronous: a step's files are read between two awaits of the loop, and a thread-pool
  // round trip per call would cost more than the read itself.
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  if (stats === undefined) return null;
  if (stats.isSymbolicLink()) return { content: Buffer.from(readlinkSync(absolute)), mode: MODE_LINK };
  if (!stats.isFile()) return undefined;
  if (stats.size > LARGE_FILE_BYTES) {
    return { content: await readFile(absolute), mode: stats.mode & 0o111 ? MODE_EXECUTABLE : MODE_FILE };
  }
  return { content: readFileSync(absolute), mode: stats.mode & 0o111 ? MODE_EXECUTABLE : MODE_FILE };
}

/** Files above this size are read without blocking the process. */
const LARGE_FILE_BYTES = 4 * 1024 * 1024;
