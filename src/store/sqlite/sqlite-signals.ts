import type Database from 'better-sqlite3';
import type { StoreSignals, Unsubscribe } from '../ports.js';

/** How often the SQLite store looks whether another process changed the file while a task listener waits. */
export const SQLITE_SIGNAL_POLL_MS = 500;
/**
 * How often it looks while an event listener waits (a server streaming a session another process
 * runs): `PRAGMA data_version` reads no page, so a short period costs little and keeps the
 * latency from the other process's commit to the listener near this bound.
 */
export const SQLITE_EVENT_POLL_MS = 15;

/**
 * The SQLite store's wake-ups: its own process's writes at once (the store calls taskChanged
 * and eventLogged), other processes' by polling `PRAGMA data_version` while a listener waits (it
 * changes when another connection commits). Another process's task changes come as "some queue"
 * (undefined); its events are read from the log by rowid past the last one seen and announced
 * per session with their highest seq.
 */
export class SqliteSignals implements StoreSignals {
  private readonly taskListeners = new Set<(queue: string | undefined) => void>();
  private readonly eventListeners = new Set<(sessionId: string, seq: number) => void>();
  private readonly answerListeners = new Set<(requestId: string | undefined) => void>();
  private poll: NodeJS.Timeout | undefined;
  private pollingEvery: number | undefined;
  /** The data_version the task listeners last heard of, and the event listeners. */
  private taskVersion: number | undefined;
  private eventVersion: number | undefined;
  /** When the task listeners' version was last checked: they are woken at their own pace. */
  private taskCheckedAt = 0;
  /** The highest events rowid seen while event listeners wait. */
  private lastEventRow = 0;
  private newEvents: Database.Statement | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly pollMs: number = SQLITE_SIGNAL_POLL_MS,
    private readonly eventPollMs: number = SQLITE_EVENT_POLL_MS,
  ) {}

  /** A task of `queue` was added or changed in this process. */
  taskChanged(queue: string): void {
    for (const listener of this.taskListeners) listener(queue);
  }

  /** An event was logged in this process. */
  eventLogged(sessionId: string, seq: number): void {
    for (const listener of this.eventListeners) listener(sessionId, seq);
  }

  /** A request was answered in this process. */
  answerGiven(requestId: string): void {
    for (const listener of this.answerListeners) listener(requestId);
  }

  async onAnswers(listener: (requestId: string | undefined) => void): Promise<Unsubscribe> {
    this.answerListeners.add(listener);
    this.updatePolling();
    return async () => {
      this.answerListeners.delete(listener);
      this.updatePolling();
    };
  }

  async onTasks(listener: (queue: string | undefined) => void): Promise<Unsubscribe> {
    this.taskListeners.add(listener);
    this.updatePolling();
    return async () => {
      this.taskListeners.delete(listener);
      this.updatePolling();
    };
  }

  async onEvents(listener: (sessionId: string, seq: number) => void): Promise<Unsubscribe> {
    if (this.eventListeners.size === 0) this.lastEventRow = this.readLastEventRow() ?? 0;
    this.eventListeners.add(listener);
    this.updatePolling();
    return async () => {
      this.eventListeners.delete(listener);
      this.updatePolling();
    };
  }

  close(): void {
    this.taskListeners.clear();
    this.eventListeners.clear();
    this.answerListeners.clear();
    this.updatePolling();
  }

  /** Polls at the pace the waiting listeners need: none, tasks only, or events. */
  private updatePolling(): void {
    const every =
      this.eventListeners.size > 0
        ? this.eventPollMs
        : this.taskListeners.size + this.answerListeners.size > 0
          ? this.pollMs
          : undefined;
    if (every === this.pollingEvery) return;
    const wasPolling = this.poll !== undefined;
    clearInterval(this.poll);
    this.poll = undefined;
    this.pollingEvery = every;
    if (every === undefined) return;
    if (!wasPolling) {
      this.taskVersion = this.readDataVersion();
      this.eventVersion = this.taskVersion;
    }
    this.poll = setInterval(() => this.check(), every);
    this.poll.unref();
  }

  // A worker waiting for tasks is not woken by every event another process logs (each wake-up
  // tries a claim, a write): task listeners hear of other processes' commits every pollMs.
  private check(): void {
    const version = this.readDataVersion();
    if (version === undefined) return;
    if (this.eventListeners.size > 0 && version !== this.eventVersion) {
      this.eventVersion = version;
      this.announceNewEvents();
    }
    const now = Date.now();
    if (now - this.taskCheckedAt < this.pollMs - this.eventPollMs / 2) return;
    this.taskCheckedAt = now;
    if (version === this.taskVersion) return;
    this.taskVersion = version;
    for (const listener of this.taskListeners) listener(undefined);
    // An answer another process stored: the run waiting for it looks (at the task listeners' pace).
    for (const listener of this.answerListeners) listener(undefined);
  }

  private announceNewEvents(): void {
    let rows: { row: number; sessionId: string; seq: number }[];
    try {
      // Events are never deleted: rowids only grow, so rows past the last one seen are the new ones.
      this.newEvents ??= this.sqlite.prepare(
        'SELECT max(rowid) AS row, session_id AS sessionId, max(seq) AS seq FROM events WHERE rowid > ? GROUP BY session_id',
      );
      rows = this.newEvents.all(this.lastEventRow) as typeof rows;
    } catch {
      return;
    }
    for (const { row, sessionId, seq } of rows) {
      this.lastEventRow = Math.max(this.lastEventRow, row);
      for (const listener of this.eventListeners) listener(sessionId, seq);
    }
  }

  private readLastEventRow(): number | undefined {
    try {
      if (!this.sqlite.open) return undefined;
      const row = this.sqlite.prepare('SELECT max(rowid) AS row FROM events').get() as { row: number | null };
      return row.row ?? 0;
    } catch {
      return undefined;
    }
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
