import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * Remembers, per run, which files the agent has read (or written) and what they held then.
 * edit_file uses it to enforce "read before edit": an edit is refused unless the file was read
 * in this run and has not changed on disk since.
 */
export class FileTracker {
  private readonly known = new Map<string, string>();

  /** Records the content the agent now knows for a file (after a read or its own write). */
  remember(absolutePath: string, content: Buffer | string): void {
    this.known.set(absolutePath, digest(content));
  }

  /**
   * Returns why the file may not be edited now, or null when it may: it was read in this run
   * and its content on disk is still what was read.
   */
  async whyNotEditable(absolutePath: string, displayPath: string): Promise<string | null> {
    const known = this.known.get(absolutePath);
    if (known === undefined) {
      return `${displayPath} has not been read in this run. Read it with read_file before editing it.`;
    }
    let onDisk: Buffer;
    try {
      onDisk = await readFile(absolutePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return `${displayPath} no longer exists on disk. Check the path, or create the file with write_file.`;
    }
    const current = digest(onDisk);
    if (current !== known) {
      return `${displayPath} has changed on disk since it was last read. Read it again with read_file before editing it.`;
    }
    return null;
  }
}

function digest(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}
