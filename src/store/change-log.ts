import type { FileChange, Restore } from './rows.js';
import type { BlobStoreKind, RestoreKind, RestoreMode } from './vocabulary.js';

/*
 * Change records (checkpoints) and the restores that undo, rewind and redo them, as a port; and
 * what their rows become, written once for every dialect.
 */

/** A change record as a tool call leaves it (the store adds its id, time and undo state). */
export type NewFileChange = Omit<FileChange, 'id' | 'createdAt' | 'undoneBy'>;

/** What a restore is about to do: written before any file is touched. */
export interface NewRestore {
  sessionId: string;
  kind: RestoreKind;
  mode: RestoreMode;
  /** The change records it takes back (undo, rewind) or puts again (redo). */
  changeIds: number[];
  /** The restore a redo takes back. */
  redoes?: number;
}

/** A session's change records and restores, with how old the session is. */
export interface SessionChangeSummary {
  sessionId: string;
  /** When the session was last active. */
  updatedAt: number;
  changes: number;
}

/** Content ids per place they are kept. */
export type ContentIds<T> = Record<BlobStoreKind, T>;

/** Change records (checkpoints) and the restores that undo, rewind and redo them. */
export interface ChangeLog {
  /** Records the files one tool call changed, together. */
  record(changes: NewFileChange[]): Promise<void>;
  /** A session's change records, oldest first (undone ones included). */
  list(sessionId: string): Promise<FileChange[]>;
  /** Writes a restore as pending, before any file is touched. */
  beginRestore(input: NewRestore): Promise<Restore>;
  /**
   * Marks a restore done with what it did, and the change records whose files are back (`ids`)
   * undone by it (undo, rewind) or standing again (redo), in one transaction.
   */
  finishRestore(id: number, result: unknown, ids: number[]): Promise<Restore>;
  /** A session's restores, oldest first. */
  restores(sessionId: string): Promise<Restore[]>;
  /** The id of the assistant message that made tool call `callId` in a run's conversation; undefined when none. */
  messageOfCall(
    sessionId: string,
    runId: string,
    taskId: string | null,
    callId: string,
  ): Promise<number | undefined>;
  /** Takes a conversation's messages from `fromId` on out of it (kept, marked with the restore). */
  rewindMessages(
    sessionId: string,
    fromId: number,
    taskId: string | null,
    restoreId: number,
  ): Promise<number>;
  /** Puts the messages a restore took out back into the conversation (a redo of both). */
  restoreMessages(restoreId: number): Promise<number>;
  /** Every session with change records, with when it was last active. */
  sessionsWithChanges(): Promise<SessionChangeSummary[]>;
  /**
   * Deletes the change records and restores of the sessions last active before `before`: those
   * sessions, how many records went, and the content ids those records named.
   */
  prune(before: number): Promise<{ sessions: string[]; changes: number; ids: ContentIds<string[]> }>;
  /** Every content id change records still name, per store (what pruning must keep). */
  contentIds(): Promise<ContentIds<Set<string>>>;
}

/** How many ids one `IN (…)` list holds. */
export const CHANGE_ID_BATCH = 500;

/** The rows one tool call's change records are stored as. */
export function changeRows(
  changes: readonly NewFileChange[],
  createdAt: number,
): Omit<FileChange, 'id' | 'undoneBy'>[] {
  return changes.map((change) => ({ ...change, createdAt }));
}

/** The row a restore is written as before any file is touched (pending until finished). */
export function newRestoreRow(input: NewRestore, now: number): Omit<Restore, 'id' | 'status' | 'result'> {
  return {
    sessionId: input.sessionId,
    kind: input.kind,
    mode: input.mode,
    changeIds: JSON.stringify(input.changeIds),
    redoes: input.redoes ?? null,
    createdAt: now,
  };
}

/** What the change records a restore put back are marked with: undone by it, or (a redo) standing again. */
export function undoneByAfter(restore: Pick<Restore, 'id' | 'kind'>): number | null {
  return restore.kind === 'redo' ? null : restore.id;
}

/** What a restore's row becomes once every file is back. */
export function finishedRestore(result: unknown): Pick<Restore, 'status' | 'result'> {
  return { status: 'done', result: JSON.stringify(result) };
}

/** The content ids change records name, per place they are kept. */
export function contentIdsOf(
  rows: Iterable<{ store: BlobStoreKind; before: string | null; after: string | null }>,
): ContentIds<Set<string>> {
  const ids: ContentIds<Set<string>> = { git: new Set<string>(), folder: new Set<string>() };
  for (const row of rows) {
    if (row.before) ids[row.store].add(row.before);
    if (row.after) ids[row.store].add(row.after);
  }
  return ids;
}
