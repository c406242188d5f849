import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import {
  CHANGE_ID_BATCH,
  type ChangeLog,
  changeRows,
  contentIdsOf,
  finishedRestore,
  type NewFileChange,
  type NewRestore,
  newRestoreRow,
  type SessionChangeSummary,
  undoneByAfter,
} from '../change-log.js';
import type { FileChange, Restore } from '../rows.js';
import type { PgDb } from './connection.js';
import type { PgContext } from './context.js';
import { fileChanges, messages, restores, sessions } from './schema.js';

/** Change records and restores in PostgreSQL, with the contracts of the SQLite ChangeStore. */
export class PgChangeStore implements ChangeLog {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  private get db(): PgDb {
    return this.ctx.db;
  }

  async record(changes: NewFileChange[]): Promise<void> {
    if (changes.length === 0) return;
    const createdAt = this.now();
    await this.db.insert(fileChanges).values(changeRows(changes, createdAt));
  }

  async list(sessionId: string): Promise<FileChange[]> {
    return this.db
      .select()
      .from(fileChanges)
      .where(eq(fileChanges.sessionId, sessionId))
      .orderBy(asc(fileChanges.id));
  }

  async beginRestore(input: NewRestore): Promise<Restore> {
    const [row] = await this.db.insert(restores).values(newRestoreRow(input, this.now())).returning();
    if (row === undefined) throw new Error('The restore was not stored.');
    return row;
  }

  async finishRestore(id: number, result: unknown, ids: number[]): Promise<Restore> {
    return this.ctx.transaction(async (db) => {
      const [restore] = await db.select().from(restores).where(eq(restores.id, id));
      if (!restore) throw new Error(`There is no restore ${id}.`);
      for (let at = 0; at < ids.length; at += CHANGE_ID_BATCH) {
        await db
          .update(fileChanges)
          .set({ undoneBy: undoneByAfter(restore) })
          .where(inArray(fileChanges.id, ids.slice(at, at + CHANGE_ID_BATCH)));
      }
      const [done] = await db
        .update(restores)
        .set(finishedRestore(result))
        .where(eq(restores.id, id))
        .returning();
      if (!done) throw new Error(`There is no restore ${id}.`);
      return done;
    });
  }

  async restores(sessionId: string): Promise<Restore[]> {
    return this.db.select().from(restores).where(eq(restores.sessionId, sessionId)).orderBy(asc(restores.id));
  }

  async messageOfCall(
    sessionId: string,
    runId: string,
    taskId: string | null,
    callId: string,
  ): Promise<number | undefined> {
    const [row] = await this.db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.sessionId, sessionId),
          eq(messages.runId, runId),
          taskId === null ? isNull(messages.taskId) : eq(messages.taskId, taskId),
          eq(messages.role, 'assistant'),
          sql`strpos(${messages.content}, ${JSON.stringify(callId)}) > 0`,
        ),
      )
      .orderBy(asc(messages.id))
      .limit(1);
    return row?.id;
  }

  async rewindMessages(
    sessionId: string,
    fromId: number,
    taskId: string | null,
    restoreId: number,
  ): Promise<number> {
    const rows = await this.db
      .update(messages)
      .set({ rewoundBy: restoreId })
      .where(
        and(
          eq(messages.sessionId, sessionId),
          gte(messages.id, fromId),
          taskId === null ? isNull(messages.taskId) : eq(messages.taskId, taskId),
          isNull(messages.rewoundBy),
        ),
      )
      .returning({ id: messages.id });
    return rows.length;
  }

  async restoreMessages(restoreId: number): Promise<number> {
    const rows = await this.db
      .update(messages)
      .set({ rewoundBy: null })
      .where(eq(messages.rewoundBy, restoreId))
      .returning({ id: messages.id });
    return rows.length;
  }

  async sessionsWithChanges(): Promise<SessionChangeSummary[]> {
    const rows = await this.db
      .select({
        sessionId: fileChanges.sessionId,
        updatedAt: sessions.updatedAt,
        changes: sql<string>`count(*)`,
      })
      .from(fileChanges)
      .innerJoin(sessions, eq(sessions.id, fileChanges.sessionId))
      .groupBy(fileChanges.sessionId, sessions.updatedAt);
    return rows.map((row) => ({ ...row, changes: Number(row.changes) }));
  }

  async prune(
    before: number,
  ): Promise<{ sessions: string[]; changes: number; ids: { git: string[]; folder: string[] } }> {
    return this.ctx.transaction(async (db) => {
      const old = (
        await db
          .selectDistinct({ id: fileChanges.sessionId })
          .from(fileChanges)
          .innerJoin(sessions, eq(sessions.id, fileChanges.sessionId))
          .where(lt(sessions.updatedAt, before))
      ).map((row) => row.id);
      const named: { store: FileChange['blobStore']; before: string | null; after: string | null }[] = [];
      let changes = 0;
      for (let at = 0; at < old.length; at += CHANGE_ID_BATCH) {
        const slice = old.slice(at, at + CHANGE_ID_BATCH);
        const removed = await db.delete(fileChanges).where(inArray(fileChanges.sessionId, slice)).returning({
          store: fileChanges.blobStore,
          before: fileChanges.beforeId,
          after: fileChanges.afterId,
        });
        named.push(...removed);
        changes += removed.length;
        await db.delete(restores).where(inArray(restores.sessionId, slice));
      }
      const ids = contentIdsOf(named);
      return { sessions: old, changes, ids: { git: [...ids.git], folder: [...ids.folder] } };
    });
  }

  async contentIds(): Promise<{ git: Set<string>; folder: Set<string> }> {
    const rows = await this.db
      .select({ store: fileChanges.blobStore, before: fileChanges.beforeId, after: fileChanges.afterId })
      .from(fileChanges);
    return contentIdsOf(rows);
  }
}
