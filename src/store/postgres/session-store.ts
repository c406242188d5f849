import { and, asc, desc, eq, exists, gt, inArray, isNull, max, or, type SQL, sql } from 'drizzle-orm';
import type { ServerEvent } from '../../events/registry.js';
import { DEFAULT_SESSION_LIST_LIMIT } from '../defaults.js';
import { newId } from '../ids.js';
import type { SessionLog } from '../ports.js';
import type { MessageRole, Run, Session } from '../sqlite/schema.js';
import type {
  AppendMessageOptions,
  CreateRunInput,
  CreateSessionInput,
  FinishRunInput,
  MessageFilter,
  StoredMessage,
  UnsequencedEvent,
} from '../sqlite/session-store.js';
import { SessionStoreError, unknownSession } from '../store-errors.js';
import { CHANNELS } from './channels.js';
import { type PgDb, queryRows } from './connection.js';
import type { PgContext } from './context.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from './errors.js';
import { resolvePgIdPrefix } from './id-lookup.js';
import { events, messages, plans, runs, sessions, tasks } from './schema.js';
import { unfinishedPlan } from './task-store.js';

/** How many times an event's write is tried under a newer seq before it fails (writers racing for a session). */
const MAX_APPEND_ATTEMPTS = 20;

function noTask(taskId: string): SessionStoreError {
  return new SessionStoreError(`There is no task with the id ${taskId}.`);
}

/**
 * The one statement that logs an event under its seq and announces it (at commit): it writes
 * nothing when the session does not exist, when the seq before is missing, or when the seq is
 * taken (`on conflict do nothing` waits for a writer holding it, then yields).
 */
function appendStatement(event: ServerEvent): SQL {
  const { session_id: sessionId, seq } = event;
  const updateType = event.type === 'agent_update' ? event.update_type : null;
  return sql`with added as (
    insert into ${events} (session_id, seq, run_id, type, update_type, payload, ts)
    select ${sessionId}, ${seq}, ${event.run_id}, ${event.type}, ${updateType}, ${JSON.stringify(event)}, ${event.ts}
    where exists (select 1 from ${sessions} where id = ${sessionId})
      and (${seq}::integer = 1 or exists (select 1 from ${events} where session_id = ${sessionId} and seq = ${seq}::integer - 1))
    on conflict do nothing
    returning seq
  )
  select pg_notify(${CHANNELS.events}, ${`${sessionId} ${seq}`}) from added`;
}

/**
 * The one statement that logs a session's events under consecutive seqs from the first one's,
 * and announces the last (at commit): it writes nothing when the session does not exist or the
 * seq before the first is missing. A seq taken meanwhile is skipped (`on conflict do nothing`),
 * so fewer rows than events come back when another writer raced it: the caller takes back the
 * rows it did write.
 */
function appendAllStatement(stamped: readonly ServerEvent[]): SQL {
  const first = stamped[0]!;
  const sessionId = first.session_id;
  const last = stamped.at(-1)!.seq;
  const rows = sql.join(
    stamped.map(
      (event) =>
        sql`(${event.seq}::integer, ${event.run_id}, ${event.type}, ${event.type === 'agent_update' ? event.update_type : null}, ${JSON.stringify(event)}, ${event.ts}::bigint)`,
    ),
    sql`, `,
  );
  return sql`with given (seq, run_id, type, update_type, payload, ts) as (values ${rows}),
  added as (
    insert into ${events} (session_id, seq, run_id, type, update_type, payload, ts)
    select ${sessionId}, seq, run_id, type, update_type, payload, ts from given
    where exists (select 1 from ${sessions} where id = ${sessionId})
      and (${first.seq}::integer = 1 or exists (select 1 from ${events} where session_id = ${sessionId} and seq = ${first.seq}::integer - 1))
    on conflict do nothing
    returning seq
  )
  select seq, case when seq = ${last}::integer then pg_notify(${CHANNELS.events}, ${`${sessionId} ${last}`}) end from added`;
}

/**
 * Sessions, their conversation, runs and event log in PostgreSQL, with the contracts of the
 * SQLite SessionStore. An event goes in only under the session's next seq (the one before it
 * exists, the key refuses a second), so writers on several machines get increasing seqs with no
 * gap; each new seq is announced with NOTIFY.
 */
export class PgSessionStore implements SessionLog {
  /** The seq this process expects each session's next event to get: its last write's, plus one. */
  private readonly nextSeqs = new Map<string, number>();

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
   * trip waits its turn). The seq is guessed (the one announced, else the one after this
   * process's last write to the session) and the row goes in only if it is the next: the one
   * before it exists, and none has it yet (the key decides between writers racing for it). A
   * wrong guess (another writer went first, a rolled-back write) writes nothing; the log's last
   * seq is read and the write tried again, unless the seq was announced: that is an error.
   */
  async appendEvent(event: UnsequencedEvent): Promise<ServerEvent> {
    const [logged] = await this.appendInOrder([event]);
    return logged!;
  }

  /**
   * Logs events of one session in order under its next seqs with one statement, all or none,
   * as appendEvent logs one; when another writer took one of the seqs, the rows written are
   * taken back and the batch is tried again after the log's last seq.
   */
  async appendEvents(batch: readonly UnsequencedEvent[]): Promise<ServerEvent[]> {
    if (batch.length === 0) return [];
    // A part written and taken back must never be seen: outside a transaction it gets its own.
    if (batch.length > 1 && !this.ctx.inTransaction)
      return this.ctx.transaction(() => this.appendInOrder(batch));
    return this.appendInOrder(batch);
  }

  /** appendEvent and appendEvents: one statement a try, under the guessed seqs. */
  private async appendInOrder(batch: readonly UnsequencedEvent[]): Promise<ServerEvent[]> {
    const first = batch[0]!;
    const sessionId = first.session_id;
    const one = batch.length === 1;
    const given = batch.map((event) => event.seq);
    let seq = first.seq ?? this.nextSeqs.get(sessionId) ?? (await this.lastSeq(sessionId)) + 1;
    for (let attempt = 1; ; attempt++) {
      const stamped = batch.map((event, index) => ({ ...event, seq: seq + index }) as ServerEvent);
      const wrong = stamped.findIndex(
        (event, index) => given[index] !== undefined && given[index] !== event.seq,
      );
      if (wrong >= 0) {
        throw new SessionStoreError(
          `The events given to log to session ${sessionId} are not numbered one after another (seq ${stamped[wrong]?.seq} was announced as ${given[wrong]}).`,
        );
      }
      let written: { seq: number }[];
      try {
        written = await queryRows(this.db, one ? appendStatement(stamped[0]!) : appendAllStatement(stamped));
      } catch (error) {
        if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw unknownSession(sessionId);
        throw error;
      }
      if (written.length === stamped.length) {
        this.nextSeqs.set(sessionId, seq + stamped.length);
        return stamped;
      }
      this.nextSeqs.delete(sessionId);
      if (written.length > 0) {
        // Part of the batch went in between another writer's events: it is taken back whole.
        const taken = written.map((row) => Number(row.seq));
        await this.db.delete(events).where(and(eq(events.sessionId, sessionId), inArray(events.seq, taken)));
      }
      const last = await this.lastSeq(sessionId);
      if (last === 0 && (await this.getSession(sessionId)) === undefined) throw unknownSession(sessionId);
      if (first.seq !== undefined) {
        throw new SessionStoreError(
          `The ${one ? 'event was announced as' : 'events were announced from'} seq ${first.seq} of session ${sessionId}, but the next seq is ${last + 1}: another writer logged events to the session meanwhile.`,
        );
      }
      if (attempt >= MAX_APPEND_ATTEMPTS) {
        throw new SessionStoreError(
          `Could not log ${one ? 'an event' : 'events'} to session ${sessionId}: other writers took its next seq ${attempt} times in a row.`,
        );
      }
      seq = last + 1;
    }
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

  async lastSeq(sessionId: string): Promise<number> {
    const [row] = await this.db
      .select({ last: max(events.seq) })
      .from(events)
      .where(eq(events.sessionId, sessionId));
    return row?.last ?? 0;
  }

  async createRun(input: CreateRunInput): Promise<Run> {
    const now = this.now();
    return this.ctx.transaction(async (db) => {
      await this.touch(input.sessionId, now, 'running');
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
        .set({
          status: input.status,
          finalAnswer: input.finalAnswer ?? null,
          steps: input.steps,
          inputTokens: input.inputTokens,
          outputTokens: input.outputTokens,
          cost: input.cost ?? null,
          endedAt: now,
          ...(input.mode === undefined ? {} : { mode: input.mode }),
        })
        .where(eq(runs.id, input.id))
        .returning();
      if (run === undefined) throw new SessionStoreError(`There is no run with the id ${input.id}.`);
      await this.touch(run.sessionId, now, 'idle');
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
