import type Database from 'better-sqlite3';
import type { StoreSignals, Unsubscribe } from './ports.js';

/** How often the SQLite store looks whether another process changed the file while a listener waits. */
export const SQLITE_SIGNAL_POLL_MS = 500;

/**
 * The SQLite store's wake-ups: its own process's writes at once (the store calls taskChanged
 * and eventLogged), other processes' by polling `PRAGMA data_version` while a task listener
 * waits (it changes when another connection commits); those come as "some queue" (undefined).
 * Other processes' events are not announced: a reader polls `events(afterSeq)`.
 */
export class SqliteSignals implements StoreSignals {
  private readonly taskListeners = new Set<(queue: string | undefined) => void>();
  private readonly eventListeners = new Set<(sessionId: string, seq: number) => void>();
  private poll: NodeJS.Timeout | undefined;
  private dataVersion: number | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly pollMs: number = SQLITE_SIGNAL_POLL_MS,
  ) {}

  /** A task of `queue` was added or changed in this process. */
  taskChanged(queue: string): void {
    for (const listener of this.taskListeners) listener(queue);
  }

  /** An event was logged in this process. */
  eventLogged(sessionId: string, seq: number): void {
    for (const listener of this.eventListeners) listener(sessionId, seq);
  }

  async onTasks(listener: (queue: string | undefined) => void): Promise<Unsubscribe> {
    this.taskListeners.add(listener);
    this.startPolling();
    return async () => {
      this.taskListeners.delete(listener);
      if (this.taskListeners.size === 0) this.stopPolling();
    };
  }

  async onEvents(listener: (sessionId: string, seq: number) => void): Promise<Unsubscribe> {
    this.eventListeners.add(listener);
    return async () => {
      this.eventListeners.delete(listener);
    };
  }

  close(): void {
    this.stopPolling();
    this.taskListeners.clear();
    this.eventListeners.clear();
  }

  private startPolling(): void {
    if (this.poll !== undefined) return;
    this.dataVersion = this.readDataVersion();
    this.poll = setInterval(() => {
      const version = this.readDataVersion();
      if (version === undefined || version === this.dataVersion) return;
      this.dataVersion = version;
      for (const listener of this.taskListeners) listener(undefined);
    }, this.pollMs);
    this.poll.unref();
  }

  private stopPolling(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }

  private readDataVersion(): number | undefined {
    try {
      if (!this.sqlite.open) return undefined;
      return Number(this.sqlite.pragma('data_version', { simple: true }));
    } catch {
      return undefined;
    }
  }
}
