/**
 * Events pushed by one side and read by `for await` on the other: what arrives before the reader
 * asks waits in order; `end` finishes the iteration once what waits has been read, `fail` throws
 * at that point. Leaving the loop early (`break`, `return`) calls `onReturn`.
 */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  private readonly waiting: T[] = [];
  private readers: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly onReturn: () => void = () => {}) {}

  /** Whether it ended (or failed): nothing more is taken. */
  get isEnded(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    const reader = this.readers.shift();
    if (reader) reader.resolve({ value, done: false });
    else this.waiting.push(value);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const reader of this.readers.splice(0)) reader.resolve({ value: undefined, done: true });
  }

  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.ended = true;
    for (const reader of this.readers.splice(0)) reader.reject(error);
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.waiting.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => this.readers.push({ resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.waiting.length = 0;
    this.end();
    this.onReturn();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
