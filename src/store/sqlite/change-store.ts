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
import type { SyncPort } from '../ports.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { type FileChange, fileChanges, messages, type Restore, restores, sessions } from './schema.js';

export type { NewFileChange, NewRestore, SessionChangeSummary };

/**
 * Change records (one file one tool call changed, by content id) and the restores that undo,
 * rewind or redo them. The contents themselves live outside the database (the repository's
 * object database, or `.taskweave/blobs`); here are their ids only, so a large file is never
 * copied into the database.
 */
export class ChangeStore implements SyncPort<ChangeLog> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;

  constructor(
    private readonly db: TaskweaveDb,
    options: { now?: () => number } = {},
  ) {
    this.orm = db.drizzle;
    this.now = options.now ?? Date.now;
  }

  /** Records the files one tool call changed, together. */
  record(changes: NewFileChange[]): void {
    if (changes.length === 0) return;
    const createdAt = this.now();
    this.orm.insert(fileChanges).values(changeRows(changes, createdAt)).run();
  }

  /** A session's change records, oldest first (undone ones included). */
  list(sessionId: string): FileChange[] {
    return this.orm
      .select()
      .from(fileChanges)
      .where(eq(fileChanges.sessionId, sessionId))
      .orderBy(asc(fileChanges.id))
      .all();
  }

  /** Writes a restore as pending, before any file is touched. */
  beginRestore(input: NewRestore): Restore {
    return this.orm.insert(restores).values(newRestoreRow(input, this.now())).returning().get();
  }

  /**
   * Marks a restore done with what it did, and the change records it took back undone by it
   * (undo, rewind) or standing again (redo), in one transaction. `ids`: the records whose files
   * are back (a conflict's are not).
   */
  finishRestore(id: number, result: unknown, ids: number[]): Restore {
    return this.db.sqlite.transaction(() => {
      const restore = this.orm.select().from(restores).where(eq(restores.id, id)).get();
      if (!restore) throw new Error(`There is no restore ${id}.`);
      for (let at = 0; at < ids.length; at += CHANGE_ID_BATCH) {
        const slice = ids.slice(at, at + CHANGE_ID_BATCH);
        this.orm
          .update(fileChanges)
          .set({ undoneBy: undoneByAfter(restore) })
          .where(inArray(fileChanges.id, slice))
          .run();
      }
      return this.orm
        .update(restores)
        .set(finishedRestore(result))
        .where(eq(restores.id, id))
        .returning()
        .get();
    })();
  }

  /** A session's restores, oldest first. */
  restores(sessionId: string): Restore[] {
    return this.orm
      .select()
      .from(restores)
      .where(eq(restores.sessionId, sessionId))
      .orderBy(asc(restores.id))
      .all();
  }

  /**
   * The id of the first message of a conversation from which a step on: the assistant message
   * that made the tool call `callId` in run `runId` (in that task's conversation, or the top-level
   * one); undefined when the conversation holds no such message.
   */
  messageOfCall(sessionId: string, runId: string, taskId: string | null, callId: string): number | undefined {
    const pattern = `%${JSON.stringify(callId).replace(/[%_\\]/g, '\\$&')}%`;
    const row = this.orm
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.sessionId, sessionId),
          eq(messages.runId, runId),
          taskId === null ? isNull(messages.taskId) : eq(messages.taskId, taskId),
          eq(messages.role, 'assistant'),
          sql`${messages.content} like ${pattern} escape '\\'`,
        ),
      )
      .orderBy(asc(messages.id))
      .limit(1)
      .get();
    return row?.id;
  }

  /**
   * Takes a conversation's messages from `fromId` on out of it (kept, marked with the restore):
   * the session's top-level conversation, or one task's.
   */
  rewindMessages(sessionId: string, fromId: number, taskId: string | null, restoreId: number): number {
    return this.orm
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
      .run().changes;
  }

  /** Puts the messages a restore took out back into the conversation (a redo of both). */
  restoreMessages(restoreId: number): number {
    return this.orm.update(messages).set({ rewoundBy: null }).where(eq(messages.rewoundBy, restoreId)).run()
      .changes;
  }

  /** Every session with change records, with when it was last active. */
  sessionsWithChanges(): SessionChangeSummary[] {
    return this.orm
      .select({
        sessionId: fileChanges.sessionId,
        updatedAt: sessions.updatedAt,
        changes: sql<number>`count(*)`,
      })
      .from(fileChanges)
      .innerJoin(sessions, eq(sessions.id, fileChanges.sessionId))
      .groupBy(fileChanges.sessionId)
      .all();
  }

  /**
   * Deletes the change records and restores of the sessions last active before `before` that
   * have any: those sessions, how many records went, and the content ids those records named.
   */
  prune(before: number): { sessions: string[]; changes: number; ids: { git: string[]; folder: string[] } } {
    return this.db.sqlite.transaction(() => {
      const old = this.orm
        .selectDistinct({ id: fileChanges.sessionId })
        .from(fileChanges)
        .innerJoin(sessions, eq(sessions.id, fileChanges.sessionId))
        .where(lt(sessions.updatedAt, before))
        .all()
        .map((row) => row.id);
      const named: { store: FileChange['blobStore']; before: string | null; after: string | null }[] = [];
      let changes = 0;
      for (let at = 0; at < old.length; at += CHANGE_ID_BATCH) {
        const slice = old.slice(at, at + CHANGE_ID_BATCH);
        const rows = this.orm
          .select({ store: fileChanges.blobStore, before: fileChanges.beforeId, after: fileChanges.afterId })
          .from(fileChanges)
          .where(inArray(fileChanges.sessionId, slice))
          .all();
        named.push(...rows);
        changes += this.orm.delete(fileChanges).where(inArray(fileChanges.sessionId, slice)).run().changes;
        this.orm.delete(restores).where(inArray(restores.sessionId, slice)).run();
      }
      const ids = contentIdsOf(named);
      return { sessions: old, changes, ids: { git: [...ids.git], folder: [...ids.folder] } };
    })();
  }

  /** Every content id change records still name, per store (what pruning must keep). */
  contentIds(): { git: Set<string>; folder: Set<string> } {
    const rows = this.orm
      .select({ store: fileChanges.blobStore, before: fileChanges.beforeId, after: fileChanges.afterId })
      .from(fileChanges)
      .all();
    return contentIdsOf(rows);
  }
}
