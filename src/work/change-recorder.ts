import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { NewFileChange } from '../store/change-log.js';
import type { ChangeLog } from '../store/ports.js';
import type { ChangeKind } from '../tools/approval.js';
import { anchorContents } from './anchor.js';
import { type BlobStore, FolderBlobStore, GitBlobStore } from './blob-store.js';
import { changedAtOrAfter, fileSystemNow } from './change-clock.js';
import { type FileState, readFileState } from './file-state.js';
import { findRepository, type Repository } from './repository.js';
import { type SnapshotBase, TreeSnapshots } from './tree-snapshot.js';
import { changesFolder, indexFileFor, isRecordedPath } from './work-paths.js';

/** One tool call about to run, as its change record needs it. */
export interface RecordedCall {
  callId: string;
  tool: string;
  /** What the tool may change: `files` (a path argument), `command` (anything git sees). */
  changes: ChangeKind;
  args: unknown;
  step: number;
  /** The plan task (as the events name it); undefined outside a plan. */
  taskId?: string;
}

export interface ChangeRecorderOptions {
  root: string;
  sessionId: string;
  runId: string;
  store: ChangeLog;
  /** Told once when recording fails (the call itself goes on, unrecorded). */
  onError?: (message: string) => void;
}

/** Where a run's contents go: found on the first call that may change files. */
interface Backing {
  repository: Repository | null;
  blobs: BlobStore;
  snapshots: TreeSnapshots | null;
}

/**
 * Leaves a change record for every tool call that changes files: per file, what it was before
 * and what taskweave left (content ids). File tools are recorded exactly, around the call (which
 * holds its path's lock); a command, in a git workspace, by a snapshot of the files git sees
 * before and after it (ignored files are not recorded); outside git, commands are not recorded.
 * A file another task's file tool changed while a command ran is that task's change, not the
 * command's. Recording never fails a call: a failure is told once and the call goes on.
 *
 * A command's step pays for one scan, the one after it: the snapshot before it is the one the
 * previous command's scan left. What changed since then and before the command began is told
 * apart by the file system's change times (change-clock.ts): a file last changed before the
 * command began is not the command's; one the command changed has, as its content before, what
 * this run's file tools last wrote there, else the snapshot's.
 */
export class ChangeRecorder {
  private backing: Promise<Backing> | undefined;
  /** Per command running now: the files other calls changed meanwhile (path → content id left). */
  private readonly windows = new Set<Map<string, string | null>>();
  /** Records written behind the steps, one after another. */
  private tail: Promise<void> = Promise.resolve();
  private told = false;
  private recorded = false;
  /** Ticks once per event the command records are ordered by (file-tool writes, command starts, scans). */
  private sequence = 0;
  /** The tick the latest scan began at: the next command's snapshot holds every write before it. */
  private lastScanTick = 0;
  /** What this run's file tools last left in each file, and at which tick. */
  private readonly written = new Map<string, { id: string | null; mode: number | null; at: number }>();
  /** Commands running now: the writes their snapshots may lack are kept until none runs. */
  private commandsRunning = 0;

  private readonly indexFile: string;

  constructor(private readonly options: ChangeRecorderOptions) {
    this.indexFile = indexFileFor(options.root, options.runId);
  }

  /**
   * Runs a call, recording what it changed when it may change files. `onCommandChanged` is told
   * the files (absolute paths) a command changed, once its scan found them (git workspaces only).
   */
  async around<T>(
    call: RecordedCall,
    run: () => Promise<T>,
    onCommandChanged?: (files: string[]) => void,
  ): Promise<T> {
    if (call.changes === 'files') return this.aroundFileTool(call, run);
    if (call.changes === 'command') return this.aroundCommand(call, run, onCommandChanged);
    return run();
  }

  /**
   * Keeps the run's contents from git's garbage collection (a ref to them), once the run recorded
   * anything in a repository. Never throws.
   */
  async close(): Promise<void> {
    await this.settled();
    if (!this.backing) return;
    try {
      const backing = await this.backing;
      await rm(this.indexFile, { force: true });
      if (this.recorded && backing.repository) {
        await anchorContents(
          backing.repository,
          this.options.root,
          (await this.options.store.contentIds()).git,
        );
      }
    } catch (error) {
      this.tell(error);
    }
  }

  /** Resolves once every record taken so far is written (contents and rows). */
  settled(): Promise<void> {
    return this.tail;
  }

  private later(work: () => Promise<void>): void {
    this.tail = this.tail.then(work).catch((error: unknown) => this.tell(error));
  }

  private open(): Promise<Backing> {
    this.backing ??= (async () => {
      const repository = await findRepository(this.options.root);
      if (!repository) {
        return {
          repository,
          blobs: new FolderBlobStore(path.join(changesFolder(this.options.root), 'blobs')),
          snapshots: null,
        };
      }
      return {
        repository,
        blobs: new GitBlobStore(repository),
        snapshots: new TreeSnapshots(repository, this.options.root, this.indexFile),
      };
    })();
    return this.backing;
  }

  private async aroundFileTool<T>(call: RecordedCall, run: () => Promise<T>): Promise<T> {
    const relative = this.fileOf(call.args);
    if (relative === undefined) return run();
    const absolute = path.join(this.options.root, relative);
    let before: FileState | undefined;
    try {
      await this.open();
      before = await readFileState(absolute);
    } catch (error) {
      this.tell(error);
      return run();
    }
    const result = await run();
    try {
      const after = await readFileState(absolute);
      if (before === undefined || after === undefined) return result;
      const { blobs } = await this.open();
      const beforeId = before ? blobs.idOf(before.content) : null;
      const afterId = after ? blobs.idOf(after.content) : null;
      if (beforeId === afterId && before?.mode === after?.mode) return result;
      for (const window of this.windows) window.set(relative, afterId);
      this.written.set(relative, { id: afterId, mode: after?.mode ?? null, at: this.tick() });
      // The contents and the record are written behind the step, in order: the step does not
      // wait for them; close() (at the run's end) does.
      this.later(async () => {
        if (before) await blobs.put(before.content);
        if (after) await blobs.put(after.content);
        await this.save(call, blobs.kind, [
          {
            path: relative,
            beforeId,
            beforeMode: before?.mode ?? null,
            afterId,
            afterMode: after?.mode ?? null,
          },
        ]);
      });
    } catch (error) {
      this.tell(error);
    }
    return result;
  }

  private async aroundCommand<T>(
    call: RecordedCall,
    run: () => Promise<T>,
    onChanged: ((files: string[]) => void) | undefined,
  ): Promise<T> {
    let base: SnapshotBase;
    let snapshots: TreeSnapshots;
    let startedAt: number;
    let since: bigint;
    try {
      const backing = await this.open();
      if (!backing.snapshots) return run();
      snapshots = backing.snapshots;
      base = await snapshots.latest(() => this.tick());
      startedAt = this.tick();
      since = fileSystemNow(changesFolder(this.options.root), `clock-${this.options.runId}`);
    } catch (error) {
      this.tell(error);
      return run();
    }
    const others = new Map<string, string | null>();
    this.windows.add(others);
    this.commandsRunning += 1;
    let result: T;
    try {
      result = await run();
    } catch (error) {
      this.commandsRunning -= 1;
      throw error;
    } finally {
      this.windows.delete(others);
    }
    try {
      const found = await snapshots.changesSince(base.tree, () => {
        this.lastScanTick = this.tick();
        return this.lastScanTick;
      });
      const changes = found.flatMap((change) => {
        if (!isRecordedPath(change.path)) return [];
        if (others.has(change.path) && others.get(change.path) === change.afterId) return [];
        // Changed before the command began (by the user, or by a file tool since the snapshot).
        if (!changedAtOrAfter(this.options.root, change.path, since)) return [];
        const written = this.written.get(change.path);
        if (written === undefined || written.at < base.scannedFrom || written.at > startedAt) return [change];
        if (written.id === change.afterId && written.mode === change.afterMode) return [];
        return [{ ...change, beforeId: written.id, beforeMode: written.mode }];
      });
      this.later(() => this.save(call, 'git', changes));
      onChanged?.(changes.map((change) => path.join(this.options.root, change.path)));
    } catch (error) {
      this.tell(error);
    } finally {
      this.commandsRunning -= 1;
      this.forgetWritesBefore();
    }
    return result;
  }

  /** Drops the file-tool writes every snapshot a command may still use already holds. */
  private forgetWritesBefore(): void {
    if (this.commandsRunning > 0) return;
    // The next command's base is scanned from a later tick than any entry kept here is needed for.
    const horizon = this.lastScanTick;
    for (const [file, written] of this.written) if (written.at < horizon) this.written.delete(file);
  }

  private tick(): number {
    this.sequence += 1;
    return this.sequence;
  }

  private async save(
    call: RecordedCall,
    store: 'git' | 'folder',
    files: Omit<NewFileChange, 'sessionId' | 'runId' | 'taskId' | 'step' | 'callId' | 'tool' | 'blobStore'>[],
  ): Promise<void> {
    if (files.length === 0) return;
    this.recorded = true;
    await this.options.store.record(
      files.map((file) => ({
        ...file,
        sessionId: this.options.sessionId,
        runId: this.options.runId,
        taskId: call.taskId ?? null,
        step: call.step,
        callId: call.callId,
        tool: call.tool,
        blobStore: store,
      })),
    );
  }

  /** The workspace-relative path a file tool's call names; undefined when it names none inside. */
  private fileOf(args: unknown): string | undefined {
    if (args === null || typeof args !== 'object') return undefined;
    const given = (args as Record<string, unknown>).path;
    if (typeof given !== 'string' || given === '') return undefined;
    const relative = path.relative(this.options.root, path.resolve(this.options.root, given));
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    const shown = relative.split(path.sep).join('/');
    return isRecordedPath(shown) ? shown : undefined;
  }

  private tell(error: unknown): void {
    if (this.told) return;
    this.told = true;
    const message = error instanceof Error ? error.message : String(error);
    this.options.onError?.(`Changes of this run may be missing from its checkpoints (undo): ${message}`);
  }
}
