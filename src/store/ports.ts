import type { ChangeStore } from './sqlite/change-store.js';
import type { CommandStore } from './sqlite/command-store.js';
import type { OriginStore } from './sqlite/origin-store.js';
import type { RequestStore } from './sqlite/request-store.js';
import type { SessionStore } from './sqlite/session-store.js';
import type { TaskStore } from './sqlite/task-store.js';
import type { UsageStore } from './sqlite/usage-store.js';

/*
 * The store as the rest of taskweave reaches it: three async ports. SQLite implements them today
 * (better-sqlite3 is synchronous; its answers come back as settled promises); a PostgreSQL
 * implementation, several workers on several machines sharing one queue, is a second
 * implementation of the same ports. Each method keeps the contract (and the transaction) its
 * SQLite method documents: TaskStore and SessionStore are the reference.
 */

/** A synchronous API as an async port: every method returns a promise of what it returned. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** The persistent task queue and to-do list: adding, claiming under leases, hand-off, state changes. */
export type TaskQueue = Async<
  Pick<
    TaskStore,
    | 'add'
    | 'addAndStartIfIdle'
    | 'attachSession'
    | 'get'
    | 'resolveId'
    | 'listActive'
    | 'listAll'
    | 'dependencies'
    | 'claimNext'
    | 'completeAndClaimNext'
    | 'failAndClaimNext'
    | 'start'
    | 'startIfIdle'
    | 'takeOver'
    | 'renewLease'
    | 'releaseExpiredLeases'
    | 'complete'
    | 'fail'
    | 'block'
    | 'skip'
    | 'settle'
    | 'cancel'
    | 'resetToPending'
    | 'reopen'
    | 'clearRunSettings'
    | 'delete'
  >
>;

/** Plans: a proposed graph of tasks, its approval, and its tasks' states. */
export type PlanStore = Async<
  Pick<TaskStore, 'createPlan' | 'getPlan' | 'lastPlan' | 'setPlanStatus' | 'unfinishedPlans' | 'planTasks'>
>;

/** The session log: sessions, runs, their conversation and the event log (the store assigns seq). */
export type SessionLog = Async<
  Pick<
    SessionStore,
    | 'createSession'
    | 'getSession'
    | 'resolveId'
    | 'listSessions'
    | 'lastSession'
    | 'latestSessionWithUnfinishedWork'
    | 'appendMessage'
    | 'messages'
    | 'appendEvent'
    | 'appendEvents'
    | 'events'
    | 'lastSeq'
    | 'createRun'
    | 'finishRun'
    | 'getRun'
    | 'runs'
  >
>;

/** Commands running now (run_command), for ending those a killed process left behind. */
export type CommandLog = Async<Pick<CommandStore, 'started' | 'ended' | 'list'>>;

/** Change records (checkpoints) and the restores that undo, rewind and redo them. */
export type ChangeLog = Async<
  Pick<
    ChangeStore,
    | 'record'
    | 'list'
    | 'beginRestore'
    | 'finishRestore'
    | 'restores'
    | 'messageOfCall'
    | 'rewindMessages'
    | 'restoreMessages'
    | 'sessionsWithChanges'
    | 'prune'
    | 'contentIds'
  >
>;

/** Tokens and cost of runs per queue task and per day. */
export type UsageLog = Async<Pick<UsageStore, 'byTask' | 'byDay'>>;

/** Where and by whom the database was created. */
export type OriginLog = Async<Pick<OriginStore, 'get' | 'record'>>;

/** The requests runs make of the user and their answers, given once, from any process (see RequestStore). */
export type RequestLog = Async<Pick<RequestStore, 'ask' | 'get' | 'answer' | 'take' | 'list'>>;

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
  /** Where the data lives, for messages (a file path, `:memory:`, or a server URL without its password). */
  location: string;
  /** Wake-ups when tasks change or events are logged (see StoreSignals). */
  signals: StoreSignals;
  /**
   * How long a run's journal may hold streamed events (text deltas, tool progress) before it
   * writes them, which is the lag a viewer in another process sees on them; STREAMED_FLUSH_MS
   * (50) unless the store says. A PostgreSQL store says less: its workers have no viewer of
   * their own, every viewer is a server elsewhere reading what is written.
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
