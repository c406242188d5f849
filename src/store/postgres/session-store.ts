import { and, asc, desc, eq, exists, gt, isNull, max, or, type SQL, sql } from 'drizzle-orm';
import type { ServerEvent } from '../../events/registry.js';
import { DEFAULT_SESSION_LIST_LIMIT } from '../defaults.js';
import { newId } from '../ids.js';
import type { SessionLog } from '../ports.js';
import type { MessageRole, Run, Session } from '../schema.js';
import type {
  AppendMessageOptions,
  CreateRunInput,
  CreateSessionInput,
  FinishRunInput,
  MessageFilter,
  StoredMessage,
  UnsequencedEvent,
} from '../session-store.js';
import { SessionStoreError, unknownSession } from '../store-errors.js';
import { notifyEvent } from './channels.js';
import type { PgDb } from './connection.js';
import type { PgContext } from './context.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from './errors.js';
import { resolvePgIdPrefix } from './id-lookup.js';
import { lockSessionLog } from './locks.js';
import { events, messages, plans, runs, sessions } from './schema.js';
import { unfinishedPlan } from './task-store.js';

/**
 * Sessions, their conversation, runs and event log in PostgreSQL, with the contracts of the
 * SQLite SessionStore. A session's next seq is assigned under its advisory lock, so writers on
 * several machines get increasing seqs with no gap; each new seq is announced with NOTIFY.
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
    try {
      const id = await this.ctx.transaction(async (db) => {
        await this.touch(sessionId, now);
        const [row] = await db
          .insert(messages)
          .values({ sessionId, runId, role, content: json, createdAt: now, taskId })
          .returning({ id: messages.id });
        if (row === undefined) throw new Error('The message was not stored.');
        return row.id;
      });
      return { id, sessionId, runId, role, content: JSON.parse(json), createdAt: now, taskId };
    } catch (error) {
      // touch has already vouched for the session: the task is the reference that is missing.
      if (taskId !== null && pgErrorCode(error) === FOREIGN_KEY_VIOLATION) {
        throw new SessionStoreError(`There is no task with the id ${taskId}.`);
      }
      throw error;
    }
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

  async appendEvent(event: UnsequencedEvent): Promise<ServerEvent> {
    try {
      return await this.ctx.transaction(async (db) => {
        await lockSessionLog(db, event.session_id);
        const seq = (await this.lastSeq(event.session_id)) + 1;
        if (event.seq !== undefined && event.seq !== seq) {
          throw new SessionStoreError(
            `The event was announced as seq ${event.seq} of session ${event.session_id}, but the next seq is ${seq}: another writer logged events to the session meanwhile.`,
          );
        }
        const stamped = { ...event, seq } as ServerEvent;
        await db.insert(events).values({
          sessionId: event.session_id,
          seq,
          runId: event.run_id,
          type: event.type,
          updateType: event.type === 'agent_update' ? event.update_type : null,
          payload: JSON.stringify(stamped),
          ts: event.ts,
        });
        await notifyEvent(db, event.session_id, seq);
        return stamped;
      });
    } catch (error) {
      if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw unknownSession(event.session_id);
      throw error;
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
