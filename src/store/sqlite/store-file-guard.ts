import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StoreGoneError } from '../store-errors.js';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export { StoreGoneError };

/**
 * Notices that the database file under an open connection went away: deleted (`rm -rf
 * .taskweave` by a command), replaced by another file, or overwritten in place. SQLite itself
 * would go on writing into the deleted file, and the run would report work nobody can find.
 * check() costs a stat and a 16-byte read.
 */
export class StoreFileGuard {
  private readonly identity: { dev: number; ino: number };
  private readonly fd: number;
  private readonly header = Buffer.alloc(SQLITE_HEADER.length);
  private gone: StoreGoneError | undefined;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    const opened = statSync(path);
    this.identity = { dev: opened.dev, ino: opened.ino };
  }

  /** Throws StoreGoneError (the same one every time, once seen) when the file is not the one opened. */
  check(): void {
    if (this.gone) throw this.gone;
    const now = statSync(this.path, { throwIfNoEntry: false });
    let problem: string | undefined;
    if (now === undefined) problem = 'was deleted';
    else if (now.dev !== this.identity.dev || now.ino !== this.identity.ino)
      problem = 'was replaced by another file';
    else if (now.size > 0) {
      const read = readSync(this.fd, this.header, 0, this.header.length, 0);
      if (read < this.header.length || !this.header.equals(SQLITE_HEADER)) problem = 'was overwritten';
    }
    if (problem === undefined) return;
    this.gone = new StoreGoneError(
      `The database file ${this.path} ${problem} while taskweave had it open (did a command or another program remove or write .taskweave/?); nothing since then was kept.`,
    );
    throw this.gone;
  }

  close(): void {
    closeSync(this.fd);
  }
}
