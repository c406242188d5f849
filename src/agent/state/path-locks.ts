/**
 * One lock per file path: writes to the same file by tasks running in parallel happen one after
 * another, writes to different files at the same time.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of the lock on `key` is done. */
  async withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
