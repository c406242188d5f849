import { randomBytes } from 'node:crypto';
import { readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { git, gitOutcome } from './git.js';
import {
  listWorktrees,
  moveWorktree,
  removeWorktree,
  unlockWorktree,
  type WorktreeEntry,
} from './worktree.js';

/** The folder of a repository's idle worktrees, beside the goals' folders (a goal id never starts with a dot). */
export const IDLE_FOLDER = '.idle';

/** An idle worktree unused for this long is removed when a goal next looks for one. */
export const IDLE_LIMIT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A repository's worktrees kept between goals: a goal that ends parks its worktrees here (detached,
 * reset and cleaned, the shared links and copies kept), up to a bound, and the next goal's pool
 * adopts them (`git worktree move` into its folder, then a switch that rewrites only the files that
 * differ) instead of checking out every file again. Two processes adopting at once: `git worktree
 * move` renames, so one gets each worktree and the other goes on to the next or makes its own.
 */
export class IdleWorktrees {
  constructor(
    private readonly top: string,
    /** `<git-common-dir>/taskweave/worktrees/.idle`. */
    private readonly folder: string,
  ) {}

  /**
   * Takes an idle worktree and moves it to `to` (a goal's slot folder); whether one was taken.
   * Idle worktrees past IDLE_LIMIT_MS, or that git no longer knows, are removed on the way.
   */
  async adopt(to: string, now = Date.now()): Promise<boolean> {
    const [taken] = await this.adoptEach([to], { now });
    return taken === true;
  }

  /**
   * adopt for several slot folders at once (a goal's first worktrees, made ahead): the idle
   * worktrees are listed once and each goes to one folder. Whether each folder got one.
   * `listed`: the repository's worktrees as the caller just listed them.
   */
  async adoptEach(
    targets: readonly string[],
    options: { now?: number; listed?: WorktreeEntry[] } = {},
  ): Promise<boolean[]> {
    const now = options.now ?? Date.now();
    const taken = targets.map(() => false);
    const listed = options.listed ?? (await listWorktrees(this.top));
    // A registration whose folder is gone (a park killed half-way through its move): forgotten.
    const worktrees = path.dirname(this.folder);
    for (const entry of listed)
      if (entry.prunable && entry.path.startsWith(`${worktrees}${path.sep}`))
        await removeWorktree(this.top, entry.path);
    const known = new Set(listed.map((entry) => entry.path));
    const names = (await readdir(this.folder).catch(() => [] as string[])).sort();
    let next = 0;
    for (const [index, to] of targets.entries()) {
      while (next < names.length && !taken[index]) {
        const from = path.join(this.folder, names[next] as string);
        next += 1;
        const info = await stat(from).catch(() => undefined);
        if (!info) continue;
        if (!known.has(from) || now - info.mtimeMs > IDLE_LIMIT_MS) {
          await removeWorktree(this.top, from);
          continue;
        }
        // Another process may take it first (the move is a rename): then the next one is tried.
        taken[index] = await moveWorktree(this.top, from, to);
      }
    }
    return taken;
  }

  /**
   * Parks a goal's worktree: detached at the commit it is at, its changes thrown away and what git
   * does not track removed (`keep` and, with `keepIgnored`, ignored files staying), then moved
   * here. Removed instead when `bound` worktrees are idle already or anything fails.
   */
  async park(
    folder: string,
    options: { bound: number; keep: readonly string[]; keepIgnored: boolean },
  ): Promise<void> {
    const idle = (await readdir(this.folder).catch(() => [] as string[])).length;
    if (idle >= options.bound || !(await this.cleanDetached(folder, options))) {
      await removeWorktree(this.top, folder);
      return;
    }
    const to = path.join(this.folder, `w-${randomBytes(4).toString('hex')}`);
    if (!(await moveWorktree(this.top, folder, to))) {
      await removeWorktree(this.top, folder);
      return;
    }
    // Its idle time counts from now (a rename keeps the folder's time).
    await utimes(to, new Date(), new Date()).catch(() => {});
  }

  private async cleanDetached(
    folder: string,
    options: { keep: readonly string[]; keepIgnored: boolean },
  ): Promise<boolean> {
    const { hasIndex } = await unlockWorktree(this.top, folder);
    if (!hasIndex) return false;
    const detached = await gitOutcome(['checkout', '--quiet', '--force', '--detach'], { cwd: folder });
    if (detached.code !== 0) return false;
    const keep = options.keep.flatMap((name) => ['-e', `/${name}`]);
    await git(['clean', '--quiet', '--force', '-d', ...(options.keepIgnored ? [] : ['-x']), ...keep], {
      cwd: folder,
    });
    return true;
  }
}
