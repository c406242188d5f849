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
  type UnsequencedEvent,
} from '../event-log.js';
import { newId } from '../ids.js';
import type { Run, Session } from '../rows.js';
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
import type { MessageRole } from '../vocabulary.js';
import { CHANNELS } from './channels.js';
import { type PgDb, queryRows } from './connection.js';
import type { PgContext } from './context.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from './errors.js';
import { resolvePgIdPrefix } from './id-lookup.js';
import {
  commands,
  events,
  fileChanges,
  messages,
  plans,
  requests,
  restores,
  runs,
  sessionSeqs,
  sessions,
  tasks,
} from './schema.js';
import { unfinishedPlan } from './task-store.js';

/** The conditions of a session that holds nothing: no row of it in any table but its counter's. */
function nothingOf(db: PgDb, sessionId: string): SQL[] {
  const holders = [messages, events, runs, plans, commands, requests, fileChanges, restores];
  return [
    ...holders.map(
      (table) => sql`not exists (select 1 from ${table} where ${table.sessionId} = ${sessionId})`,
    ),
    notExists(
      db
        .select({ one: sql`1` })
        .from(tasks)
        .where(
          and(eq(tasks.sessionId, sessionId), notInArray(tasks.status, [...EMPTY_SESSION_TASK_STATUSES])),
        ),
    ),
  ];
}

function noTask(taskId: string): SessionStoreError {
  return new SessionStoreError(`There is no task with the id ${taskId}.`);
}

/**
 * The one statement that logs a session's events under its next seqs and announces the last (at
 * commit): it bumps the session's counter by their number (the row lock makes a writer racing
 * for the session wait for this one's transaction) and inserts the rows under the seqs it gave.
 * A missing session fails it on the counter's foreign key; nothing is written then.
 */
function appendStatement(sessionId: string, records: readonly EventRecord[]): SQL {
  const count = records.length;
  const rows = sql.join(
    records.map(
      (record, index) =>
        sql`(${index + 1}::integer, ${record.runId}, ${record.type}, ${record.updateType}::text, ${record.payloadHead}, ${record.ts}::bigint)`,
    ),
    sql`, `,
  );
  return sql`with counted as (
    insert into ${sessionSeqs} (session_id, last_seq) values (${sessionId}::text, ${count}::integer)
    on conflict (session_id) do update set last_seq = ${sessionSeqs.lastSeq} + excluded.last_seq
    returning last_seq
  ),
  given (ordinal, run_id, type, update_type, payload_head, ts) as (values ${rows}),
  added as (
    insert into ${events} (session_id, seq, run_id, type, update_type, payload, ts)
    select ${sessionId}::text, seq, run_id, type, update_type, payload_head || ',"seq":' || seq || '}', ts
    from (select counted.last_seq - ${count}::integer + given.ordinal as seq, given.* from counted, given) numbered
    returning seq
  )
  select min(seq) as first, pg_notify(${CHANNELS.events}, ${sessionId}::text || ' ' || max(seq)) from added`;
}

/**
 * Sessions, their conversation, runs and event log in PostgreSQL, with the contracts of the
 * SQLite SessionStore. An event's seq comes from its session's counter, bumped by the statement
 * that inserts it, so writers on several machines get increasing seqs with no gap; each new seq
 * is announced with NOTIFY.
 */
export class PgSessionStore implements SessionLog {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  private get db(): PgDb {
    return this.ctx.db;
  }

  async createSession(input: CreateSessionInput): Promise<Session> {
    const now = this.now();
    const [row] = await this.db
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
      .returning();
    if (row === undefined) throw new Error('The session was not stored.');
    return row;
  }

  async resolveId(input: string): Promise<string> {
    return resolvePgIdPrefix(this.db, 'session', input);
  }

  async getSession(id: string): Promise<Session | undefined> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    return row;
  }

  async listSessions(options: { limit?: number } = {}): Promise<Session[]> {
    return this.db
      .select()
      .from(sessions)
      .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt), desc(sessions.id))
      .limit(options.limit ?? DEFAULT_SESSION_LIST_LIMIT);
  }

  async lastSession(): Promise<Session | undefined> {
    return (await this.listSessions({ limit: 1 }))[0];
  }

  async latestSessionWithUnfinishedWork(): Promise<Session | undefined> {
    const db = this.db;
    const lastRunStatus = db
      .select({ status: runs.status })
      .from(runs)
      .where(eq(runs.sessionId, sessions.id))
      .orderBy(desc(runs.startedAt), desc(runs.id))
      .limit(1);
    const openPlan = db
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.sessionId, sessions.id), unfinishedPlan(db)));
    const [row] = await db
      .select()
      .from(sessions)
      .where(or(sql`(${lastRunStatus}) = 'running'`, exists(openPlan)))
      .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt), desc(sessions.id))
      .limit(1);
    return row;
  }

  async appendMessage(
    sessionId: string,
    runId: string,
    role: MessageRole,
    content: unknown,
    options: AppendMessageOptions = {},
  ): Promise<StoredMessage> {
    const now = this.now();
    const taskId = options.taskId ?? null;
    const json = JSON.stringify(content);
    // One statement (one round trip, no savepoint): the session is touched and the message added
    // together, or neither when the session or the task is missing.
    const [row] = await queryRows<{ id: number }>(
      this.db,
      sql`with touched as (
        update ${sessions} set updated_at = ${now}
        where id = ${sessionId}
          and (${taskId}::text is null or exists (select 1 from ${tasks} where id = ${taskId}::text))
        returning id
      )
      insert into ${messages} (session_id, run_id, role, content, created_at, task_id)
      select id, ${runId}, ${role}, ${json}, ${now}, ${taskId}::text from touched
      returning id`,
    ).catch((error: unknown) => {
      // The task was deleted between the check and the insert.
      if (taskId !== null && pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw noTask(taskId);
      throw error;
    });
    if (row === undefined) {
      if ((await this.getSession(sessionId)) === undefined) throw unknownSession(sessionId);
      throw noTask(taskId ?? '');
    }
    return { id: Number(row.id), sessionId, runId, role, content: JSON.parse(json), createdAt: now, taskId };
  }

  async messages(sessionId: string, filter: MessageFilter = {}): Promise<StoredMessage[]> {
    let byTask: SQL | undefined;
    if (filter.taskId === null) byTask = isNull(messages.taskId);
    else if (filter.taskId !== undefined) byTask = eq(messages.taskId, filter.taskId);
    const rows = await this.db
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
      .orderBy(asc(messages.id));
    return rows.map(({ rewoundBy: _rewound, ...row }) => ({ ...row, content: JSON.parse(row.content) }));
  }

  /**
   * Logs an event under the session's next seq in one statement (one round trip: the events of
   * a run are written while other workers' commits and git compete for the CPU, and each round
   * trip waits its turn): the session's counter gives the seq, in the statement that inserts
   * the row.
   */
  async appendEvent(event: UnsequencedEvent): Promise<ServerEvent> {
    const [logged] = await this.append([eventRecord(event)]);
    return logged!;
  }

  /** Logs events of one session in order under its next seqs with one statement, all or none. */
  async appendEvents(batch: readonly UnsequencedEvent[]): Promise<ServerEvent[]> {
    return this.append(batch.map(eventRecord));
  }

  private async append(records: readonly EventRecord[]): Promise<ServerEvent[]> {
    const sessionId = batchSession(records);
    if (sessionId === undefined) return [];
    let first: number | undefined;
    try {
      const [row] = await queryRows<{ first: number | null }>(this.db, appendStatement(sessionId, records));
      first = row?.first ?? undefined;
    } catch (error) {
      if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw unknownSession(sessionId);
      throw error;
    }
    if (first === undefined) throw unknownSession(sessionId);
    const from = Number(first);
    return records.map((record, index) => stampedEvent(record, from + index));
  }

  async events(sessionId: string, options: { afterSeq?: number } = {}): Promise<ServerEvent[]> {
    const rows = await this.db
      .select({ payload: events.payload })
      .from(events)
      .where(and(eq(events.sessionId, sessionId), gt(events.seq, options.afterSeq ?? -1)))
      .orderBy(asc(events.seq));
    return rows.map((row) => {
      // Written by appendEvent from a ServerEvent; the store trusts its own log.
      const event: ServerEvent = JSON.parse(row.payload);
      return event;
    });
  }

  async removeIfEmpty(sessionId: string): Promise<boolean> {
    return this.ctx.transaction(async (db) => {
      // The row lock keeps a writer adding to the session (a run, an event's counter) out until the end.
      const [empty] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), ...nothingOf(db, sessionId)))
        .for('update');
      if (empty === undefined) return false;
      await db
        .update(tasks)
        .set({ sessionId: null, updatedAt: this.now() })
        .where(eq(tasks.sessionId, sessionId));
      await db.delete(sessionSeqs).where(eq(sessionSeqs.sessionId, sessionId));
      await db.delete(sessions).where(eq(sessions.id, sessionId));
      return true;
    });
  }

  async lastSeq(sessionId: string): Promise<number> {
    const [row] = await this.db
      .select({ last: sessionSeqs.lastSeq })
      .from(sessionSeqs)
      .where(eq(sessionSeqs.sessionId, sessionId));
    return row?.last ?? 0;
  }

  async createRun(input: CreateRunInput): Promise<Run> {
    const now = this.now();
    return this.ctx.transaction(async (db) => {
      await this.touch(input.sessionId, now, SESSION_STATUS_OF_RUN.started);
      const [run] = await db
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
        .returning();
      if (run === undefined) throw new Error('The run was not stored.');
      return run;
    });
  }

  async finishRun(input: FinishRunInput): Promise<Run> {
    const now = this.now();
    return this.ctx.transaction(async (db) => {
      const [run] = await db
        .update(runs)
        .set(finishedRun(input, now))
        .where(eq(runs.id, input.id))
        .returning();
      if (run === undefined) throw new SessionStoreError(`There is no run with the id ${input.id}.`);
      await this.touch(run.sessionId, now, SESSION_STATUS_OF_RUN.finished);
      return run;
    });
  }

  async getRun(id: string): Promise<Run | undefined> {
    const [row] = await this.db.select().from(runs).where(eq(runs.id, id));
    return row;
  }

  async runs(sessionId: string): Promise<Run[]> {
    return this.db
      .select()
      .from(runs)
      .where(eq(runs.sessionId, sessionId))
      .orderBy(asc(runs.startedAt), asc(runs.id));
  }

  /** Marks a session active now (and sets its status); throws for an unknown session. */
  private async touch(sessionId: string, now: number, status?: Session['status']): Promise<void> {
    const touched = await this.db
      .update(sessions)
      .set({ updatedAt: now, ...(status === undefined ? {} : { status }) })
      .where(eq(sessions.id, sessionId))
      .returning({ id: sessions.id });
    if (touched.length === 0) throw unknownSession(sessionId);
  }
}
