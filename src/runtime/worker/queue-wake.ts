import type { Store } from '../../store/ports.js';

/** A waiting worker's alarm: it rings when a task of its queue changed, or when the wait is over. */
export interface QueueWake {
  /**
   * Resolves when a task of the queue was added or changed since the last wait (at once if one
   * was meanwhile), or after `ms` at the latest: the slow poll that catches what no signal
   * announces (a lease that expired).
   */
  wait(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens to the store's task signals for one queue (PostgreSQL: LISTEN/NOTIFY from every
 * machine; SQLite: this process at once, other processes by its poll).
 */
export async function watchQueue(store: Store, queue: string): Promise<QueueWake> {
  let rang = false;
  let ring: (() => void) | undefined;
  const unsubscribe = await store.signals.onTasks((changed) => {
    if (changed !== undefined && changed !== queue) return;
    rang = true;
    ring?.();
  });
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (rang) {
          rang = false;
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          ring = undefined;
          rang = false;
          resolve();
        };
        const timer = setTimeout(done, ms);
        ring = done;
      }),
    close: unsubscribe,
  };
}
