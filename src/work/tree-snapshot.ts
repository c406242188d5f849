import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { git } from './git.js';
import type { Repository } from './repository.js';

/** A file two snapshots disagree on: ids and modes before and after (null: absent). */
export interface TreeChange {
  /** Relative to the workspace, `/` between folders. */
  path: string;
  beforeId: string | null;
  beforeMode: number | null;
  afterId: string | null;
  afterMode: number | null;
}

/** Git's mode for a submodule: its own repository, not recorded. */
const MODE_SUBMODULE = 0o160000;

/**
 * Snapshots of the files git sees in the workspace (tracked, and untracked ones not ignored),
 * taken through a throw-away index of taskweave's own (GIT_INDEX_FILE): `git add -A` then
 * `git write-tree`. The user's index, stash, branches and HEAD are never touched. The index is
 * kept between snapshots, so git rehashes only files whose stat changed; it starts as a copy of
 * the user's index, so the first snapshot does not hash the whole tree. One snapshot at a time.
 */
export class TreeSnapshots {
  private tail: Promise<unknown> = Promise.resolve();
  private seeded = false;
  /** Pathspecs leaving out the large untracked files found at the first snapshot. */
  private excluded: string[] = [];

  constructor(
    private readonly repository: Repository,
    /** The workspace root: only files under it are snapshot. */
    private readonly root: string,
    /** taskweave's index file (in `.taskweave/`). */
    private readonly indexFile: string,
  ) {}

  /** The tree id of the workspace's files as they are now. */
  take(): Promise<string> {
    return this.inTurn(() => this.takeNow());
  }

  /**
   * The files that changed since the snapshot `before`: the index takes the files as they are
   * now, and is compared with that tree (no second tree is written).
   */
  changesSince(before: string): Promise<TreeChange[]> {
    return this.inTurn(async () => {
      await this.addAll();
      const printed = await git(['diff-index', '--cached', '-z', '--no-renames', before, '--', '.'], {
        cwd: this.root,
        env: { GIT_INDEX_FILE: this.indexFile },
      });
      return this.parse(printed);
    });
  }

  /** Runs work on the index after the work before it (one git command on the index at a time). */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work);
    this.tail = next.catch(() => {});
    return next;
  }

  private async takeNow(): Promise<string> {
    await this.addAll();
    return (await git(['write-tree'], { cwd: this.root, env: { GIT_INDEX_FILE: this.indexFile } }))
      .toString('utf8')
      .trim();
  }

  /** Brings taskweave's index to the workspace's files as they are now. */
  private async addAll(): Promise<void> {
    await this.seed();
    const env = { GIT_INDEX_FILE: this.indexFile };
    const args = ['add', '-A', '--ignore-errors', '--', '.', ...this.excluded];
    try {
      await git(args, { cwd: this.root, env });
    } catch (error) {
      // A seeded index git cannot use (a split or sparse index of the user's): start empty.
      await rm(this.indexFile, { force: true });
      await git(args, { cwd: this.root, env }).catch(() => {
        throw error;
      });
    }
  }

  private async seed(): Promise<void> {
    if (this.seeded) return;
    this.seeded = true;
    this.excluded = await largeUntracked(this.root);
    await mkdir(path.dirname(this.indexFile), { recursive: true });
    try {
      const userIndex = (await git(['rev-parse', '--git-path', 'index'], { cwd: this.root }))
        .toString('utf8')
        .trim();
      await copyFile(path.resolve(this.root, userIndex), this.indexFile);
    } catch {
      // No index yet (a new repository): the first snapshot hashes what is there.
    }
  }

  /** Reads git's raw diff output (`:mode mode id id status NUL path NUL` …). */
  private parse(printed: Buffer): TreeChange[] {
    const fields = printed.toString('utf8').split('\0');
    const changes: TreeChange[] = [];
    for (let at = 0; at + 1 < fields.length; at += 2) {
      const header = fields[at] ?? '';
      const file = fields[at + 1] ?? '';
      // :100644 100644 <before> <after> M
      const [oldMode, newMode, oldId, newId] = header.slice(1).split(' ');
      if (!oldMode || !newMode || !oldId || !newId) continue;
      const beforeMode = Number.parseInt(oldMode, 8);
      const afterMode = Number.parseInt(newMode, 8);
      if (beforeMode === MODE_SUBMODULE || afterMode === MODE_SUBMODULE) continue;
      if (!file.startsWith(this.repository.prefix)) continue;
      changes.push({
        path: file.slice(this.repository.prefix.length),
        beforeId: beforeMode === 0 ? null : oldId,
        beforeMode: beforeMode === 0 ? null : beforeMode,
        afterId: afterMode === 0 ? null : newId,
        afterMode: afterMode === 0 ? null : afterMode,
      });
    }
    return changes;
  }
}

/** Untracked files (not ignored) above this size are left out of snapshots: never hashed. */
export const LARGE_UNTRACKED_BYTES = 20 * 1024 * 1024;

/**
 * `:(exclude)` pathspecs for the untracked, unignored files above LARGE_UNTRACKED_BYTES in the
 * workspace (a dataset, a download): hashing them into the object database on every snapshot
 * would cost their size in disk and time. Tracked files are always recorded.
 */
async function largeUntracked(root: string): Promise<string[]> {
  const listed = await git(['ls-files', '--others', '--exclude-standard', '-z', '--', '.'], {
    cwd: root,
  }).catch(() => Buffer.alloc(0));
  const excluded: string[] = [];
  for (const file of listed.toString('utf8').split('\0')) {
    if (file === '') continue;
    const size = await stat(path.join(root, file)).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size > LARGE_UNTRACKED_BYTES) excluded.push(`:(exclude,literal)${file}`);
  }
  return excluded;
}
