import type { ChangeLog } from './change-log.js';
import type { CommandLog } from './command-log.js';
import type { ImageLog } from './image-log.js';
import type { OriginLog } from './origin-log.js';
import type { PlanStore } from './plan-store.js';
import type { RequestLog } from './requests.js';
import type { SessionLog } from './session-log.js';
import type { TaskQueue } from './task-queue.js';
import type { UsageLog } from './usage-log.js';

/*
 * The store as the rest of taskweave reaches it: async ports, each an interface with its own
 * input and row types (task-queue, plan-store, session-log, command-log, change-log, usage-log,
 * origin-log, requests; rows.ts). SQLite (store/sqlite/, the default) and PostgreSQL
 * (store/postgres/, several workers on several machines) implement them; the contract suite
 * (test/store/contract) runs the same tests on both. openStore (open-store.ts) opens one.
 */

export type {
  ChangeLog,
  CommandLog,
  ImageLog,
  OriginLog,
  PlanStore,
  RequestLog,
  SessionLog,
  TaskQueue,
  UsageLog,
};

/**
 * A port as a synchronous implementation provides it (better-sqlite3 answers at once): every
 * method returns what the port's promise resolves to. The SQLite store wraps it into the port.
 */
export type SyncPort<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** A synchronous implementation as an async port: every method returns a promise of what it returned. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** Stops a listener of StoreSignals. */
export type Unsubscribe = () => Promise<void>;

/**
 * Wake-ups from the store's writes, for a worker waiting for work and a server streaming a
 * session: PostgreSQL announces every process's writes (LISTEN/NOTIFY); SQLite announces its
 * own process's at once and notices other processes' task changes and events by a poll. A wake-up says
 * only where to look: the listener reads the store for what changed.
 */
export interface StoreSignals {
  /**
   * `listener(queue)` after a task of `queue` was added or changed (it, or the next, may be
   * claimable now); `undefined` when the store cannot tell which queue. Resolves once listening.
   */
  onTasks(listener: (queue: string | undefined) => void): Promise<Unsubscribe>;
  /** `listener(sessionId, seq)` after an event was logged. Resolves once listening. */
  onEvents(listener: (sessionId: string, seq: number) => void): Promise<Unsubscribe>;
  /**
   * `listener(requestId)` after a request was answered; `undefined` when the store cannot tell
   * which (SQLite: another process's write, noticed by its poll). Resolves once listening.
   */
  onAnswers(listener: (requestId: string | undefined) => void): Promise<Unsubscribe>;
}

/** An open store of one workspace: the ports, and where it lives. */
export interface Store {
  tasks: TaskQueue;
  plans: PlanStore;
  sessions: SessionLog;
  commands: CommandLog;
  changes: ChangeLog;
  origin: OriginLog;
  usage: UsageLog;
  requests: RequestLog;
  /** Images given to the model, by the sha256 of their bytes. */
  images: ImageLog;
  /** Where the data lives, for messages (a file path, `:memory:`, or a server URL without its password). */
  location: string;
  /** Wake-ups when tasks change or events are logged (see StoreSignals). */
  signals: StoreSignals;
  /**
   * How long a run's journal may hold streamed events (text deltas, tool progress) before it
   * writes them, which is the lag every viewer sees on them (an event is published once the
   * store gave it its seq); STREAMED_FLUSH_MS (50) unless the store says. A PostgreSQL store says
   * less: its workers have no viewer of their own, every viewer is a server elsewhere reading
   * what is written.
   */
  streamedFlushMs?: number;
  /**
   * Runs `work` in one write transaction: what the ports write while it runs commits together
   * (one fsync), or not at all when it throws. A method's own transaction inside it is a
   * savepoint. For grouped writes (a run's journal): the work should only call the store. In
   * SQLite transactions run one at a time. In PostgreSQL the transaction holds one connection of
   * the pool, the ports' calls made from the work (its async context) go through it, and
   * transactions of other work run at the same time, ordered by the locks they take (a queue's,
   * a session's event log).
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
