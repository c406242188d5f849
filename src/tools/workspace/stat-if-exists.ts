import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/** The file's stats, or null when it does not exist; other errors are thrown. */
export async function statIfExists(file: string): Promise<Stats | null> {
  try {
    return await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
