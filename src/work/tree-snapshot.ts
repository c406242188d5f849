import { lstatSync } from 'node:fs';
import { copyFile, mkdir, readlink, rm, stat } from 'node:fs/promises';
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

/** A snapshot as a base for the next command: its tree, and when its scan began (a sequence number). */
export interface SnapshotBase {
  tree: string;
  /** The `sequence` reading taken just before the scan began: changes after it may be missing from the tree. */
  scannedFrom: number;
}

/** Git's mode for a submodule: its own repository, not recorded. */
const MODE_SUBMODULE = 0o160000;
const MODE_LINK = 0o120000;
const MODE_FILE = 0o100644;
const MODE_EXECUTABLE = 0o100755;

/**
 * Snapshots of the files git sees in the workspace (tracked, and untracked ones not ignored),
 * taken through a throw-away index of taskweave's own (GIT_INDEX_FILE): `git add -A` then
 * `git write-tree`. The user's index, stash, branches and HEAD are never touched. The index is
 * kept between snapshots, so git rehashes only files whose stat changed; it starts as a copy of
 * the user's index, so the first snapshot does not hash the whole tree. One snapshot at a time.
 */
export class TreeSnapshots {
  private tail: Promise<unknown> = Promise.resolve();
  /** The tree of the latest snapshot, written after the scan that ended the last command. */
  private base: Promise<SnapshotBase> | undefined;
  /** The tree taskweave's index holds (stat data aside), when known: the last one written from it. */
  private indexTree: string | undefined;
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
   * The latest snapshot: the one the last `changesSince` left (its tree written behind it), or a
   * new one when there is none. `sequence` is read just before a scan begins, so that the caller
   * can tell which of its own writes the tree may not hold.
   */
  latest(sequence: () => number): Promise<SnapshotBase> {
    const base = this.base;
    if (base === undefined) {
      const scannedFrom = sequence();
      const taken = this.take().then((tree) => ({ tree, scannedFrom }));
      this.base = taken;
      return taken;
    }
    return base.catch(() => {
      if (this.base === base) this.base = undefined;
      return this.latest(sequence);
    });
  }

  /**
   * The files that changed since the snapshot `before`: the index takes the files as they are
   * now, and is compared with that tree. The index, now up to date, becomes the next base: its
   * tree is written after the answer, so that the command's step does not wait for it.
   */
  changesSince(before: string, sequence: () => number): Promise<TreeChange[]> {
    let scannedFrom = 0;
    let settle: (() => Promise<void>) | undefined;
    const changes = this.inTurn(async () => {
      scannedFrom = sequence();
      if (before === this.indexTree) {
        const quick = await this.quickChanges().catch(() => undefined);
        if (quick !== undefined) {
          settle = quick.settle;
          return quick.changes;
        }
      }
      await this.addAll();
      const printed = await git(['diff-index', '--cached', '-z', '--no-renames', before, '--', '.'], {
        cwd: this.root,
        env: { GIT_INDEX_FILE: this.indexFile },
      });
      return this.parse(printed);
    });
    const next = this.inTurn(async () => {
      await changes;
      this.indexTree = undefined;
      await settle?.();
      const tree = await this.writeTree();
      return { tree, scannedFrom };
    });
    next.catch(() => {});
    this.base = next;
    return changes;
  }

  /**
   * The changes since the tree the index holds, without writing the index on the way: git lists
   * the tracked files whose stat differs (`diff-files`) and the untracked ones (`ls-files -o`),
   * at the same time; only those are hashed. `settle` brings the index up to date afterwards
   * (behind the step). Undefined when git cannot answer this way (the caller scans as usual).
   */
  private async quickChanges(): Promise<{ changes: TreeChange[]; settle: () => Promise<void> }> {
    // The hasher starts with the scan and is given the files to hash once the scan has found them.
    let toHash: (paths: string) => void = () => {};
    const hashing = git(['hash-object', '-w', '--stdin-paths'], {
      cwd: this.root,
      input: new Promise<string>((resolve) => {
        toHash = resolve;
      }),
    });
    hashing.catch(() => {});
    try {
      return await this.quickChangesHashedBy(hashing, toHash);
    } finally {
      // Ends the hasher when nothing was given to it (no candidates, or a failure on the way).
      toHash('');
    }
  }

  private async quickChangesHashedBy(
    hashing: Promise<Buffer>,
    toHash: (paths: string) => void,
  ): Promise<{ changes: TreeChange[]; settle: () => Promise<void> }> {
    const env = { GIT_INDEX_FILE: this.indexFile };
    const [differing, untracked] = await Promise.all([
      git(['diff-files', '-z', '--', '.'], { cwd: this.root, env }),
      git(['ls-files', '-o', '-z', '--exclude-standard', '--full-name', '--', '.', ...this.excluded], {
        cwd: this.root,
        env,
      }),
    ]);
    const prefix = this.repository.prefix;
    const candidates: TreeChange[] = [];
    const fields = differing.toString('utf8').split('\0');
    for (let at = 0; at + 1 < fields.length; at += 2) {
      const [oldMode, , oldId] = (fields[at] ?? '').slice(1).split(' ');
      const file = fields[at + 1] ?? '';
      if (!oldMode || !oldId || !file.startsWith(prefix)) continue;
      const beforeMode = Number.parseInt(oldMode, 8);
      if (beforeMode === MODE_SUBMODULE) continue;
      candidates.push({
        path: file.slice(prefix.length),
        beforeId: oldId,
        beforeMode,
        afterId: null,
        afterMode: null,
      });
    }
    for (const file of untracked.toString('utf8').split('\0')) {
      if (file === '' || !file.startsWith(prefix)) continue;
      candidates.push({
        path: file.slice(prefix.length),
        beforeId: null,
        beforeMode: null,
        afterId: null,
        afterMode: null,
      });
    }
    if (candidates.length === 0) return { changes: [], settle: async () => {} };
    // What each candidate is now: its mode from lstat, its id from git (clean filters applied, as
    // `git add` would); a symbolic link's id is that of its target's text.
    const regular: TreeChange[] = [];
    for (const change of candidates) {
      const stats = lstatSync(path.join(this.root, change.path), { throwIfNoEntry: false });
      if (stats === undefined) continue;
      if (stats.isSymbolicLink()) {
        change.afterMode = MODE_LINK;
        const target = await readlink(path.join(this.root, change.path));
        change.afterId = (
          await git(['hash-object', '-w', '--stdin', '--no-filters'], { cwd: this.root, input: target })
        )
          .toString('utf8')
          .trim();
      } else if (stats.isFile() && !/[\n"]/.test(change.path)) {
        change.afterMode = (stats.mode & 0o100) !== 0 ? MODE_EXECUTABLE : MODE_FILE;
        regular.push(change);
      } else {
        // A folder where a file was, or a name git's line input cannot carry: the caller scans.
        throw new Error(`${change.path} cannot be hashed by name`);
      }
    }
    toHash(regular.map((change) => `${change.path}\n`).join(''));
    if (regular.length > 0) {
      const ids = (await hashing).toString('utf8').trim().split('\n');
      if (ids.length !== regular.length) throw new Error('git hash-object answered for other files');
      regular.forEach((change, index) => {
        change.afterId = ids[index] ?? null;
      });
    }
    const changes = candidates
      .filter((change) => change.beforeId !== change.afterId || change.beforeMode !== change.afterMode)
      .sort((one, other) => (one.path < other.path ? -1 : one.path > other.path ? 1 : 0));
    const settle = async () => {
      const listed = candidates.map((change) => `${change.path}\0`).join('');
      await git(['update-index', '--add', '--remove', '-z', '--stdin'], {
        cwd: this.root,
        env,
        input: listed,
      });
    };
    return { changes, settle };
  }

  /** Runs work on the index after the work before it (one git command on the index at a time). */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work);
    this.tail = next.catch(() => {});
    return next;
  }

  private async takeNow(): Promise<string> {
    await this.addAll();
    return this.writeTree();
  }

  private async writeTree(): Promise<string> {
    const tree = (await git(['write-tree'], { cwd: this.root, env: { GIT_INDEX_FILE: this.indexFile } }))
      .toString('utf8')
      .trim();
    this.indexTree = tree;
    return tree;
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
