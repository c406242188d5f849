/** Where a worker tells the person watching something no run owns (not an event). */
export interface NoticeSink {
  notice(text: string): void;
}

/**
 * The notices of one runtime and their listeners (a task went back to the queue, the next queued
 * task starts…): front ends listen, the worker and the door tell.
 */
export class NoticeBoard implements NoticeSink {
  private readonly listeners = new Set<(text: string) => void>();

  /** Listens to notices; returns the function that stops listening. */
  listen(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notice(text: string): void {
    for (const listener of this.listeners) listener(text);
  }
}
