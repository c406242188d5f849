import type { Statement, Transaction } from 'better-sqlite3';
import {
  and,
  asc,
  desc,
  eq,
  exists,
  gt,
  isNull,
  notExists,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { ServerEvent } from '../../events/registry.js';
import { DEFAULT_SESSION_LIST_LIMIT } from '../defaults.js';
import {
  batchSession,
  type EventRecord,
  eventRecord,
  stampedEvent,
  stampedPayload,
  type UnsequencedEvent,
} from '../event-log.js';
import { newId } from '../ids.js';
import type { SyncPort } from '../ports.js';
import {
  type AppendMessageOptions,
  type CreateRunInput,
  type CreateSessionInput,
  EMPTY_SESSION_TASK_STATUSES,
  type FinishRunInput,
  finishedRun,
  type MessageFilter,
  SESSION_STATUS_OF_RUN,
  type SessionLog,
  type StoredMessage,
} from '../session-log.js';
import { SessionStoreError, unknownSession } from '../store-errors.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { resolveIdPrefix } from './id-lookup.js';
import {
  commands,
  events,
  fileChanges,
  type MessageRole,
  messages,
  plans,
  type Run,
  requests,
  restores,
  runs,
  type Session,
  sessionSeqs,
  sessions,
  tasks,
} from './schema.js';
import type { SqliteSignals } from './sqlite-signals.js';
import { unfinishedPlan } from './task-queries.js';

export type {
  AppendMessageOptions,
  CreateRunInput,
  CreateSessionInput,
  FinishRunInput,
  MessageFilter,
  StoredMessage,
  UnsequencedEvent,
};
export { SessionStoreError };

export interface SessionStoreOptions {
  now?: () => number;
  /** Told of every event logged (a batch by its last one: a reader reads every seq up to it). */
  signals?: Pick<SqliteSignals, 'eventLogged'>;
}

export { DEFAULT_SESSION_LIST_LIMIT } from '../defaults.js';

/**
 * Sessions, their conversation, their runs and their event log. The event log is what a client
 * replays after reconnecting (`subscribe` with `after_seq`); appendEvent is on the hot path of
 * every run and uses one prepared statement.
 */
export class SessionStore implements SyncPort<SessionLog> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;
  private readonly signals: SessionStoreOptions['signals'];
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly hot: ReturnType<typeof prepareHotStatements>;
  private readonly sqlite: TaskweaveDb['sqlite'];
  private readonly appendInTransaction: Transaction<(records: readonly EventRecord[]) => ServerEvent[]>;

  constructor(db: TaskweaveDb, options: SessionStoreOptions = {}) {
    this.orm = db.drizzle;
    this.sqlite = db.sqlite;
    this.now = options.now ?? Date.now;
    this.signals = options.signals;
    this.statements = prepareStatements(this.orm);
    this.hot = prepareHotStatements(db.sqlite);
    this.appendInTransaction = db.sqlite.transaction((records: readonly EventRecord[]) =>
      this.appendNow(records),
    );
  }

  /**
   * Logs a session's events under its next seqs: the session's counter is bumped by their number
   * and the rows inserted under the seqs it gave, in the caller's transaction (the bump and the
   * rows commit, or roll back, together).
   */
  private appendNow(records: readonly EventRecord[]): ServerEvent[] {
    const sessionId = batchSession(records);
    if (sessionId === undefined) return [];
    const counted = this.hot.bumpSeq.get(sessionId, records.length) as { last: number };
    const first = counted.last - records.length + 1;
    return records.map((record, index) => {
      const seq = first + index;
      this.hot.insertEvent.run(
        sessionId,
        seq,
        record.runId,
        record.type,
        record.updateType,
        stampedPayload(record, seq),
        record.ts,
      );
      return stampedEvent(record, seq);
    });
  }

  /** Creates an idle session. */
  createSession(input: CreateSessionInput): Session {
    const now = this.now();
    return this.orm
      .insert(sessions)
      .values({
        id: newId('ses'),
        title: input.title,
        goal: input.goal,
        workspace: input.workspace,
        model: input.model,
        status: 'idle',
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
  }

  /** The full id of the session a user means by an id or a unique prefix of it (IdLookupError otherwise). */
  resolveId(input: string): string {
    return resolveIdPrefix(this.orm, 'session', input);
  }

  /** The session, or undefined for an unknown id. */
  getSession(id: string): Session | undefined {
    return this.orm.select().from(sessions).where(eq(sessions.id, id)).get();
  }

  /** Sessions, most recently active first (a new run or message makes a session active). */
  listSessions(options: { limit?: number } = {}): Session[] {
    return this.orm
      .select()
      .from(sessions)
      .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt), desc(sessions.id))
      .limit(options.limit ?? DEFAULT_SESSION_LIST_LIMIT)
      .all();
  }

  /** The most recently active session, for `--continue`. */
  lastSession(): Session | undefined {
    return this.listSessions({ limit: 1 })[0];
  }

  /**
   * The most recently active session with work left: its last run is still marked running (it
   * was interrupted, or goes on in another process right now), or it has an approved plan with
   * tasks not yet completed or cancelled (TaskStore.unfinishedPlans lists them).
   */
  latestSessionWithUnfinishedWork(): Session | undefined {
    const lastRunStatus = this.orm
      .select({ status: runs.status })
      .from(runs)
      .where(eq(runs.sessionId, sessions.id))
      .orderBy(desc(runs.startedAt), desc(runs.id))
      .limit(1);
    const openPlan = this.orm
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.sessionId, sessions.id), unfinishedPlan(this.orm)));
    return this.orm
      .select()
      .from(sessions)
      .where(or(eq(lastRunStatus, 'running'), exists(openPlan)))
      .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt), desc(sessions.id))
      .limit(1)
      .get();
  }

  /**
   * Adds a message to the session's conversation, or to one task's conversation within it when
   * `taskId` is given; `content` is stored as JSON. Throws for an unknown session or task.
   */
  appendMessage(
    sessionId: string,
    runId: string,
    role: MessageRole,
    content: unknown,
    options: AppendMessageOptions = {},
  ): StoredMessage {
    const now = this.now();
    const taskId = options.taskId ?? null;
    const json = JSON.stringify(content);
    try {
      const id = this.inWriteTransaction(() => {
        if (this.hot.touch.run(now, sessionId).changes === 0) throw unknownSession(sessionId);
        return Number(this.hot.insertMessage.run(sessionId, runId, role, json, now, taskId).lastInsertRowid);
      });
      return { id, sessionId, runId, role, content: JSON.parse(json), createdAt: now, taskId };
    } catch (error) {
      // touch has already vouched for the session: the task is the reference that is missing.
      if (taskId !== null && sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new SessionStoreError(`There is no task with the id ${taskId}.`);
      }
      throw error;
    }
  }

  /** Removes a session that holds nothing (see SessionLog.removeIfEmpty); false when it holds something. */
  removeIfEmpty(sessionId: string): boolean {
    return this.inWriteTransaction(() => {
      const empty = this.orm
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), ...this.nothingOf(sessionId)))
        .get();
      if (empty === undefined) return false;
      this.orm
        .update(tasks)
        .set({ sessionId: null, updatedAt: this.now() })
        .where(eq(tasks.sessionId, sessionId))
        .run();
      this.orm.delete(sessionSeqs).where(eq(sessionSeqs.sessionId, sessionId)).run();
      this.orm.delete(sessions).where(eq(sessions.id, sessionId)).run();
      return true;
    });
  }

  /** The conditions of a session that holds nothing: no row of it in any table but its counter's. */
  private nothingOf(sessionId: string): SQL[] {
    const holders = [messages, events, runs, plans, commands, requests, fileChanges, restores];
    return [
      ...holders.map(
        (table) => sql`not exists (select 1 from ${table} where ${table.sessionId} = ${sessionId})`,
      ),
      notExists(
        this.orm
          .select({ one: sql`1` })
          .from(tasks)
          .where(
            and(eq(tasks.sessionId, sessionId), notInArray(tasks.status, [...EMPTY_SESSION_TASK_STATUSES])),
          ),
      ),
    ];
  }

  /**
   * Runs writes atomically: as they are inside a write transaction already (a journal's group,
   * whose commit or rollback takes them along), in one of their own otherwise.
   */
  private inWriteTransaction<T>(work: () => T): T {
    return this.sqlite.inTransaction ? work() : this.sqlite.transaction(work).immediate();
  }

  /**
   * The conversation of a session in order: all of it, or the messages of one run and of one
   * task's conversation (`taskId: null` for the top-level conversation alone) when given.
   */
  messages(sessionId: string, filter: MessageFilter = {}): StoredMessage[] {
    let byTask: SQL | undefined;
    if (filter.taskId === null) byTask = isNull(messages.taskId);
    else if (filter.taskId !== undefined) byTask = eq(messages.taskId, filter.taskId);
    return this.orm
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.sessionId, sessionId),
          filter.runId === undefined ? undefined : eq(messages.runId, filter.runId),
          byTask,
          filter.rewound ? undefined : isNull(messages.rewoundBy),
        ),
      )
      .orderBy(asc(messages.id))
      .all()
      .map(({ rewoundBy: _rewound, ...row }) => ({ ...row, content: JSON.parse(row.content) }));
  }

  /**
   * Logs one event and returns it stamped with its seq: the next of its session, given by the
   * session's counter in the same IMMEDIATE transaction as the insert, so that several processes
   * appending to one session get increasing seqs with no gap and no duplicate. The session must
   * exist.
   */
  appendEvent(event: UnsequencedEvent): ServerEvent {
    const records = [eventRecord(event)];
    try {
      // Inside a write transaction already (a journal's group) nobody else can bump the counter
      // meanwhile: no savepoint is needed. On its own the append takes the write lock first.
      const [logged] = this.sqlite.inTransaction
        ? this.appendNow(records)
        : this.appendInTransaction.immediate(records);
      return this.announced([logged!])[0]!;
    } catch (error) {
      if (sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw unknownSession(event.session_id);
      throw error;
    }
  }

  /**
   * Logs events of one session in order under its next seqs, all or none (a savepoint inside
   * the caller's transaction, else an IMMEDIATE transaction of its own). Returns them stamped.
   */
  appendEvents(events: readonly UnsequencedEvent[]): ServerEvent[] {
    const records = events.map(eventRecord);
    try {
      if (!this.sqlite.inTransaction) return this.announced(this.appendInTransaction.immediate(records));
      // In a transaction a nested one is a savepoint: a failed batch takes its bump back.
      return this.announced(this.appendInTransaction(records));
    } catch (error) {
      if (sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY')
        throw unknownSession(events[0]?.session_id ?? '');
      throw error;
    }
  }

  /** The events, once the last of them is announced. */
  private announced(logged: ServerEvent[]): ServerEvent[] {
    const last = logged.at(-1);
    if (last !== undefined) this.signals?.eventLogged(last.session_id, last.seq);
    return logged;
  }

  /** The logged events of a session in seq order, those after `afterSeq` when given. */
  events(sessionId: string, options: { afterSeq?: number } = {}): ServerEvent[] {
    return this.statements.eventsAfter.all({ sessionId, afterSeq: options.afterSeq ?? -1 }).map((row) => {
      // Written by appendEvent from a ServerEvent; the store trusts its own log.
      const event: ServerEvent = JSON.parse(row.payload);
      return event;
    });
  }

  /** The last seq the session's log gave, 0 when none: the bus starts after it. */
  lastSeq(sessionId: string): number {
    return (this.hot.lastSeq.get(sessionId) as { last: number | null } | undefined)?.last ?? 0;
  }

  /** Starts a run (status running) and marks its session running. */
  createRun(input: CreateRunInput): Run {
    const now = this.now();
    return this.orm.transaction(() => {
      this.touch(input.sessionId, now, SESSION_STATUS_OF_RUN.started);
      return this.orm
        .insert(runs)
        .values({
          id: newId('run'),
          sessionId: input.sessionId,
          goal: input.goal,
          mode: input.mode,
          status: 'running',
          taskId: input.taskId ?? null,
          startedAt: now,
        })
        .returning()
        .get();
    });
  }

  /** Records how a run ended and marks its session idle. */
  finishRun(input: FinishRunInput): Run {
    const now = this.now();
    return this.orm.transaction(() => {
      const run = this.orm
        .update(runs)
        .set(finishedRun(input, now))
        .where(eq(runs.id, input.id))
        .returning()
        .get();
      if (run === undefined) throw new SessionStoreError(`There is no run with the id ${input.id}.`);
      this.touch(run.sessionId, now, SESSION_STATUS_OF_RUN.finished);
      return run;
    });
  }

  /** The run, or undefined for an unknown id. */
  getRun(id: string): Run | undefined {
    return this.orm.select().from(runs).where(eq(runs.id, id)).get();
  }

  /** The runs of a session, oldest first. */
  runs(sessionId: string): Run[] {
    return this.orm
      .select()
      .from(runs)
      .where(eq(runs.sessionId, sessionId))
      .orderBy(asc(runs.startedAt), asc(runs.id))
      .all();
  }

  /** Marks a session active now (and sets its status); throws for an unknown session. */
  private touch(sessionId: string, now: number, status?: Session['status']): void {
    const touched = this.orm
      .update(sessions)
      .set({ updatedAt: now, ...(status === undefined ? {} : { status }) })
      .where(eq(sessions.id, sessionId))
      .returning({ id: sessions.id })
      .all();
    if (touched.length === 0) throw unknownSession(sessionId);
  }
}

function prepareStatements(orm: StoreDrizzle) {
  const sessionId = sql.placeholder('sessionId');
  return {
    eventsAfter: orm
      .select({ payload: events.payload })
      .from(events)
      .where(and(eq(events.sessionId, sessionId), gt(events.seq, sql.placeholder('afterSeq'))))
      .orderBy(asc(events.seq))
      .prepare(),
  };
}

const HOT_STATEMENTS = {
  lastSeq: 'SELECT last_seq AS last FROM session_seqs WHERE session_id = ?',
  bumpSeq:
    'INSERT INTO session_seqs (session_id, last_seq) VALUES (?, ?) ON CONFLICT (session_id) DO UPDATE SET last_seq = last_seq + excluded.last_seq RETURNING last_seq AS last',
  insertEvent:
    'INSERT INTO events (session_id, seq, run_id, type, update_type, payload, ts) VALUES (?, ?, ?, ?, ?, ?, ?)',
  touch: 'UPDATE sessions SET updated_at = ? WHERE id = ?',
  insertMessage:
    'INSERT INTO messages (session_id, run_id, role, content, created_at, task_id) VALUES (?, ?, ?, ?, ?, ?)',
};

/**
 * The statements of every step of a run (an event, a message), on the raw connection: each
 * prepared on its first use (a database still to be migrated may lack a column), then reused
 * with no query building per call.
 */
function prepareHotStatements(sqlite: TaskweaveDb['sqlite']) {
  const prepared: Partial<Record<keyof typeof HOT_STATEMENTS, Statement>> = {};
  const statements = {} as Record<keyof typeof HOT_STATEMENTS, Statement>;
  for (const name of Object.keys(HOT_STATEMENTS) as (keyof typeof HOT_STATEMENTS)[]) {
    Object.defineProperty(statements, name, {
      get: () => {
        prepared[name] ??= sqlite.prepare(HOT_STATEMENTS[name]);
        return prepared[name];
      },
    });
  }
  return statements;
}

/** The SQLite error code of a better-sqlite3 error, also when a wrapper keeps it as the cause. */
function sqliteCode(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ('code' in current && typeof current.code === 'string') return current.code;
  }
  return undefined;
}
