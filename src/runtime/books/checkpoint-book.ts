import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';
import type { FileChange, Restore, Session } from '../../store/rows.js';
import type { RestoreKind, RestoreMode } from '../../store/vocabulary.js';
import { anchorContents } from '../../work/anchor.js';
import { type BlobStore, FolderBlobStore, GitBlobStore } from '../../work/blob-store.js';
import { type Checkpoint, checkpointsOf } from '../../work/checkpoint-list.js';
import { findRepository, type Repository } from '../../work/repository.js';
import {
  RESTORE_TEMP_PREFIX,
  type RestoreConflict,
  type RestoredFile,
  restoreFiles,
} from '../../work/restore-files.js';
import { changesFolder } from '../../work/work-paths.js';
import { RuntimeInputError } from '../setup/errors.js';
import { liveWorkIn } from '../setup/live-work.js';
import type { SessionBook } from './session-book.js';

/** How long checkpoint contents are kept by default (config `checkpoints.keepDays`). */
export const DEFAULT_CHECKPOINT_KEEP_DAYS = 30;

export type { RestoreMode } from '../../store/vocabulary.js';
export type { Checkpoint } from '../../work/checkpoint-list.js';

/** What an undo, rewind or redo did. */
export interface RestoreOutcome {
  kind: RestoreKind;
  mode: RestoreMode;
  /** The checkpoint it went back to (undo, rewind) or redid. */
  checkpoint: number;
  checkpoints: number[];
  files: RestoredFile[];
  conflicts: RestoreConflict[];
  /** Messages taken out of the conversation, or put back. */
  messages: number;
  /** Checkpoints of plan tasks whose conversations were not rewound (code only). */
  taskConversations: string[];
  /** A pending restore an earlier (killed) process left, completed first. */
  completedPending: boolean;
}

export interface RestoreChoices {
  mode?: RestoreMode;
  force?: boolean;
}

/** What a prune removed. */
export interface PruneOutcome {
  sessions: number;
  changes: number;
  /** Bytes freed now (taskweave's own folder). */
  freedBytes: number;
  /** Contents in the repository no change record needs any more: git frees them at its next gc. */
  releasedGitObjects: number;
}

/**
 * A session's checkpoints (the steps that changed files) and the ways back: undo the last one,
 * rewind to one (or a plan task's), redo what an undo took back, and prune old contents.
 */
export class CheckpointBook {
  private repository: Promise<Repository | null> | undefined;

  constructor(
    private readonly store: Store,
    private readonly sessions: SessionBook,
    private readonly root: string,
    /** Told every checkpoint_restored once it is logged (the runtime's bus, for live front ends). */
    private readonly publish: (event: ServerEvent) => void = () => {},
  ) {}

  /** A session's checkpoints, oldest first, and its restores. */
  async list(
    reference: string,
  ): Promise<{ session: Session; checkpoints: Checkpoint[]; restores: Restore[] }> {
    const session = await this.sessions.find(reference);
    const [changes, restores] = await Promise.all([
      this.store.changes.list(session.id),
      this.store.changes.restores(session.id),
    ]);
    return { session, checkpoints: checkpointsOf(changes), restores };
  }

  /** Undoes the last checkpoint that still stands. */
  async undo(reference: string, choices: RestoreChoices = {}): Promise<RestoreOutcome> {
    const { session, checkpoints, pending } = await this.prepare(reference, choices);
    if (pending) return pending;
    const last = [...checkpoints].reverse().find((checkpoint) => checkpoint.undone !== 'yes');
    if (!last) throw new RuntimeInputError(nothingToUndo(session, checkpoints));
    return this.takeBack(session, 'undo', [last], choices);
  }

  /**
   * Puts every file back as it was before checkpoint `to` (or, with `task`, before that plan task:
   * its changes only, from `to` on when both are given), and by mode the conversation too.
   */
  async rewind(
    reference: string,
    target: { to?: number; task?: string },
    choices: RestoreChoices = {},
  ): Promise<RestoreOutcome> {
    const { session, checkpoints, pending } = await this.prepare(reference, choices);
    if (pending) return pending;
    if (target.to === undefined && target.task === undefined) {
      throw new RuntimeInputError(
        'Say where to rewind to: --to <checkpoint> (see taskweave checkpoints) or --task <id>.',
      );
    }
    if (target.to !== undefined && (target.to < 1 || target.to > checkpoints.length)) {
      throw new RuntimeInputError(
        checkpoints.length === 0
          ? `Session ${session.id} has no checkpoints: no step of it changed files.`
          : `There is no checkpoint ${target.to} in session ${session.id}: it has ${checkpoints.length} (taskweave checkpoints ${session.id.slice(0, 8)} lists them).`,
      );
    }
    if (target.task !== undefined && !checkpoints.some((checkpoint) => checkpoint.taskId === target.task)) {
      const tasks = [
        ...new Set(checkpoints.map((checkpoint) => checkpoint.taskId).filter((id) => id !== null)),
      ];
      throw new RuntimeInputError(
        `No checkpoint of session ${session.id} belongs to a task "${target.task}"` +
          (tasks.length > 0
            ? ` (tasks with checkpoints: ${tasks.join(', ')}).`
            : " (none of its checkpoints is a plan task's)."),
      );
    }
    const chosen = checkpoints.filter(
      (checkpoint) =>
        checkpoint.undone !== 'yes' &&
        (target.to === undefined || checkpoint.number >= target.to) &&
        (target.task === undefined || checkpoint.taskId === target.task),
    );
    if (chosen.length === 0) {
      throw new RuntimeInputError(
        'Everything from there on is undone already: nothing to rewind (taskweave redo puts the last undo back).',
      );
    }
    return this.takeBack(session, 'rewind', chosen, choices);
  }

  /** Puts again what the last undo or rewind took back (its later contents were kept). */
  async redo(reference: string, choices: RestoreChoices = {}): Promise<RestoreOutcome> {
    const { session, checkpoints, pending } = await this.prepare(reference, choices);
    if (pending) return pending;
    const restores = await this.store.changes.restores(session.id);
    const redone = new Set(
      restores.filter((restore) => restore.kind === 'redo').map((restore) => restore.redoes),
    );
    // Undos and rewinds are redone last first, each once.
    const last = [...restores]
      .reverse()
      .find((restore) => restore.kind !== 'redo' && !redone.has(restore.id));
    if (!last) {
      throw new RuntimeInputError(
        `Nothing to redo in session ${session.id}: no undo or rewind is waiting to be put back.`,
      );
    }
    const changes = checkpoints
      .flatMap((checkpoint) => checkpoint.changes)
      .filter((change) => change.undoneBy === last.id);
    const restore = await this.store.changes.beginRestore({
      sessionId: session.id,
      kind: 'redo',
      mode: last.mode,
      changeIds: changes.map((change) => change.id),
      redoes: last.id,
    });
    return this.carryOut(session, restore, choices.force ?? false, false);
  }

  /** Removes the checkpoints of sessions last active more than `keepDays` ago, and their contents. */
  async prune(keepDays = DEFAULT_CHECKPOINT_KEEP_DAYS, now = Date.now()): Promise<PruneOutcome> {
    const pruned = await this.store.changes.prune(now - keepDays * 24 * 60 * 60 * 1000);
    if (pruned.sessions.length === 0)
      return { sessions: 0, changes: 0, freedBytes: 0, releasedGitObjects: 0 };
    const kept = await this.store.changes.contentIds();
    let freedBytes = 0;
    const folder = new FolderBlobStore(path.join(changesFolder(this.root), 'blobs'));
    for (const id of pruned.ids.folder) {
      if (kept.folder.has(id)) continue;
      const file = folder.fileOf(id);
      freedBytes += await stat(file).then(
        (stats) => stats.size,
        () => 0,
      );
      await rm(file, { force: true });
    }
    await removeEmptySubfolders(folder.folder);
    const releasedGitObjects = pruned.ids.git.filter((id) => !kept.git.has(id)).length;
    const repository = await this.repo();
    if (repository && releasedGitObjects > 0) await anchorContents(repository, this.root, kept.git);
    return { sessions: pruned.sessions.length, changes: pruned.changes, freedBytes, releasedGitObjects };
  }

  /**
   * The session, its checkpoints, and the outcome of a restore a killed process left pending,
   * completed now (the operation asked for then stops there: the user sees what was completed).
   */
  private async prepare(reference: string, choices: RestoreChoices) {
    const session = await this.sessions.find(reference);
    // --force is for a session a killed process left marked running, never for a live run.
    const live = await liveWorkIn(this.store, this.root);
    if (live) {
      throw new RuntimeInputError(
        `A run of this workspace is going on (session ${live.sessionId}, "${live.title}"): files are never restored under a live run, with --force or not. ` +
          'Stop it first (Ctrl-C, or Stop in the web UI), then undo.',
        { code: 'conflict' },
      );
    }
    if (session.status === 'running' && !choices.force) {
      throw new RuntimeInputError(
        `Session ${session.id} is running: stop it first (Ctrl-C, or Stop in the web UI), then undo. ` +
          'If no process runs it any more (it was killed), --force goes ahead.',
      );
    }
    const interrupted = (await this.store.changes.restores(session.id)).find(
      (restore) => restore.status === 'pending',
    );
    const pending = interrupted ? await this.carryOut(session, interrupted, false, true) : undefined;
    const checkpoints = checkpointsOf(await this.store.changes.list(session.id));
    return { session, checkpoints, pending };
  }

  private async takeBack(
    session: Session,
    kind: 'undo' | 'rewind',
    chosen: Checkpoint[],
    choices: RestoreChoices,
  ): Promise<RestoreOutcome> {
    const mode = choices.mode ?? (kind === 'undo' ? 'code' : 'both');
    const changes = chosen.flatMap((checkpoint) =>
      checkpoint.changes.filter((change) => change.undoneBy === null),
    );
    changes.sort((a, b) => a.id - b.id);
    const restore = await this.store.changes.beginRestore({
      sessionId: session.id,
      kind,
      mode,
      changeIds: changes.map((change) => change.id),
    });
    return this.carryOut(session, restore, choices.force ?? false, false);
  }

  /**
   * Carries a restore out: its files (per file, see restoreFiles), then its conversation, then
   * marks it done and logs checkpoint_restored. Each part can run again after a kill: files
   * already as wanted count as done, messages already set aside are not counted twice.
   */
  private async carryOut(
    session: Session,
    restore: Restore,
    force: boolean,
    completedPending: boolean,
  ): Promise<RestoreOutcome> {
    const all = await this.store.changes.list(session.id);
    const checkpoints = checkpointsOf(all);
    const ids = new Set(JSON.parse(restore.changeIds) as number[]);
    const changes = all.filter((change) => ids.has(change.id));
    const chosen = checkpoints.filter((checkpoint) =>
      checkpoint.changes.some((change) => ids.has(change.id)),
    );
    if (completedPending) await removeRestoreLeftovers(this.root, changes);
    const files =
      restore.mode === 'conversation'
        ? { files: [], conflicts: [], doneIds: changes.map((change) => change.id) }
        : await restoreFiles({
            root: this.root,
            changes,
            direction: restore.kind === 'redo' ? 'forward' : 'back',
            all,
            blobs: await this.blobs(),
            force,
            describe: describer(checkpoints),
          });
    let messages = 0;
    const taskConversations: string[] = [];
    if (restore.mode !== 'code' && chosen.length > 0) {
      if (restore.kind === 'redo') {
        if (restore.redoes !== null) messages = await this.store.changes.restoreMessages(restore.redoes);
      } else {
        const first = chosen[0] as Checkpoint;
        if (first.taskId === null) {
          const firstChange = first.changes[0] as FileChange;
          const from = await this.store.changes.messageOfCall(
            session.id,
            first.runId,
            null,
            firstChange.callId,
          );
          if (from !== undefined) {
            messages = await this.store.changes.rewindMessages(session.id, from, null, restore.id);
          }
        }
      }
      for (const checkpoint of chosen) {
        if (checkpoint.taskId !== null && !taskConversations.includes(checkpoint.taskId)) {
          taskConversations.push(checkpoint.taskId);
        }
      }
    }
    return this.finish(
      session,
      restore,
      restore.kind,
      restore.mode,
      chosen,
      files,
      messages,
      taskConversations,
      completedPending,
    );
  }

  private async finish(
    session: Session,
    restore: Restore,
    kind: RestoreKind,
    mode: RestoreMode,
    chosen: Checkpoint[],
    files: { files: RestoredFile[]; conflicts: RestoreConflict[]; doneIds: number[] },
    messages: number,
    taskConversations: string[],
    completedPending: boolean,
  ): Promise<RestoreOutcome> {
    await this.store.changes.finishRestore(
      restore.id,
      { files: files.files, conflicts: files.conflicts, done: files.doneIds },
      files.doneIds,
    );
    const first = chosen[0] as Checkpoint;
    const logged = await this.store.sessions.appendEvent({
      session_id: session.id,
      run_id: first.runId,
      ts: Date.now(),
      type: 'agent_update',
      update_type: 'checkpoint_restored',
      step: first.number,
      kind,
      files: files.files,
      conflicts: files.conflicts,
      mode,
      checkpoints: chosen.map((checkpoint) => checkpoint.number),
      steps: chosen.map((checkpoint) => ({
        run_id: checkpoint.runId,
        step: checkpoint.step,
        ...(checkpoint.taskId === null ? {} : { task_id: checkpoint.taskId }),
      })),
      messages,
      ...(first.taskId === null ? {} : { task_id: first.taskId }),
    });
    this.publish(logged);
    return {
      kind,
      mode,
      checkpoint: first.number,
      checkpoints: chosen.map((checkpoint) => checkpoint.number),
      files: files.files,
      conflicts: files.conflicts,
      messages,
      taskConversations,
      completedPending,
    };
  }

  private repo(): Promise<Repository | null> {
    this.repository ??= findRepository(this.root);
    return this.repository;
  }

  private async blobs(): Promise<(kind: FileChange['blobStore']) => BlobStore> {
    const repository = await this.repo();
    const folder = new FolderBlobStore(path.join(changesFolder(this.root), 'blobs'));
    const gitStore = repository ? new GitBlobStore(repository) : undefined;
    return (kind) => {
      if (kind === 'folder') return folder;
      if (!gitStore)
        throw new RuntimeInputError(
          'These checkpoints were kept in a git repository, and the workspace is no longer in one.',
        );
      return gitStore;
    };
  }
}

function nothingToUndo(session: Session, checkpoints: Checkpoint[]): string {
  return checkpoints.length === 0
    ? `Nothing to undo in session ${session.id}: no step of it changed files (commands outside a git repository are not recorded).`
    : `Nothing to undo in session ${session.id}: all ${checkpoints.length} of its checkpoints are undone (taskweave redo puts the last back).`;
}

/** How a conflict names a later change: `checkpoint 4 (step 2 of task lint)`. */
function describer(checkpoints: Checkpoint[]): (change: FileChange) => string {
  return (change) => {
    const checkpoint = checkpoints.find((candidate) =>
      candidate.changes.some((other) => other.id === change.id),
    );
    const task = change.taskId === null ? '' : ` of task ${change.taskId}`;
    return `checkpoint ${checkpoint?.number ?? '?'} (step ${change.step}${task})`;
  };
}

/** Removes the temporary files a killed restore left beside the files it was writing. */
async function removeRestoreLeftovers(root: string, changes: FileChange[]): Promise<void> {
  const folders = new Set(changes.map((change) => path.dirname(path.join(root, change.path))));
  for (const folder of folders) {
    for (const entry of await readdir(folder).catch(() => [] as string[])) {
      if (entry.startsWith(RESTORE_TEMP_PREFIX)) await rm(path.join(folder, entry), { force: true });
    }
  }
}

async function removeEmptySubfolders(folder: string): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  for (const entry of entries) {
    const inner = path.join(folder, entry);
    const left = await readdir(inner).catch(() => null);
    if (left !== null && left.length === 0) await rm(inner, { recursive: true, force: true });
  }
}

export { fileCounts } from '../../work/checkpoint-list.js';
