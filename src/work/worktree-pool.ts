import { readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { gitOutcome } from './git.js';
import type { IdleWorktrees } from './idle-worktrees.js';
import {
  addWorktree,
  listWorktrees,
  removeWorktree,
  switchWorktree,
  unlockWorktree,
  worktreeClean,
} from './worktree.js';
import type { WorktreesAhead } from './worktrees-ahead.js';

/** One worktree of a goal's pool. */
interface Slot {
  folder: string;
  /** The branch checked out there, as last known (`taskweave/<goal>.<task>`). */
  branch?: string;
  /**
   * The branch of the task working there, or of the failed task whose work it keeps until the
   * goal ends; undefined when the slot is free for the next task.
   */
  holder?: string;
  /** Its worktree.setup command ran in this process. */
  setUp: boolean;
  /** Known to hold nothing git does not track (made ahead just now): a switch need not clean it. */
  clean?: boolean;
}

/** A slot given to a task. */
export interface PoolPlace {
  folder: string;
  /** Its files were (re)written for the task now: not a worktree continued as a crash left it. */
  created: boolean;
  /** The worktree was made now (not a slot of the pool switched to the task). */
  added: boolean;
  /** Its setup command has run in it (set by the caller through `setUpDone`). */
  setUp: boolean;
  /** The commit the task's branch was started at there, when it was (re)started now. */
  commit?: string;
}

/**
 * The worktrees of one goal, reused task after task. A fresh `git worktree add` writes every
 * file of the repository (5,000 files: 0.4 s on a quiet disk, seconds on a busy one); a slot
 * once checked out is switched to the next task's branch with `git checkout --force -B`, which
 * rewrites only the files that differ, and `git clean` (the shared links and copied files kept).
 * Slots are made lazily, one per task running at once. A task's slot is given back only once
 * its branch is merged; a failed task keeps its slot (retired, for the user to look at, reused
 * by the task's own retry) until the goal ends.
 *
 * After a crash the pool is found again from git: a worktree in the goal's folder whose branch is
 * merged into the goal branch and that holds no uncommitted change is free; any other is held by
 * its branch's task (continued there when that task resumes; a slot a switch was killed in is
 * switched again by the task it was switched to, or removed with the others when the goal ends).
 */
export class WorktreePool {
  private readonly slots: Slot[] = [];
  private found: Promise<void> | undefined;
  /** What the goal's folder held when the pool was found (a folder git forgot is not reused). */
  private leftFolders: string[] = [];

  private readonly top: string;
  private readonly folder: string;
  private readonly goalRef: string;
  private readonly keep: readonly string[];
  private readonly keepIgnored: boolean;
  private readonly ahead: WorktreesAhead;
  private readonly idle: IdleWorktrees | undefined;
  private readonly idleBound: number;

  constructor(options: {
    top: string;
    /** The goal's folder: the slots are `slot-<n>` in it. */
    folder: string;
    /** The goal branch's ref: a slot whose branch is merged into it is free. */
    goalRef: string;
    /** What a switch keeps: the shared and copied files, as paths from the worktree's top. */
    keep: readonly string[];
    /** Ignored files survive a switch (a setup command made them, and runs once per slot). */
    keepIgnored: boolean;
    /** The worktrees the runtime is making ahead of goals: waited for before the folder is read. */
    ahead: WorktreesAhead;
    /**
     * The repository's idle worktrees: adopted before one is made, and where the slots go at the
     * goal's end, up to `idleBound` (the concurrency). Left out, slots are made and removed.
     */
    idle?: IdleWorktrees;
    idleBound?: number;
  }) {
    this.top = options.top;
    this.folder = options.folder;
    this.goalRef = options.goalRef;
    this.keep = options.keep;
    this.keepIgnored = options.keepIgnored;
    this.ahead = options.ahead;
    this.idle = options.idle;
    this.idleBound = options.idleBound ?? 1;
  }

  /**
   * A worktree for the task of `branch`: the one it holds (its retry, or its continuation after
   * a crash), else a free one, else a new one. `start`: the goal branch's commit to start the
   * task's branch at (a fresh start or a retry); left out, the task continues its branch as it
   * is. The choice is made synchronously once the pool is known, so tasks starting together
   * never get the same slot.
   */
  async take(branch: string, start: string | undefined): Promise<PoolPlace> {
    this.found ??= this.find();
    await this.found;
    let slot =
      this.slots.find((candidate) => candidate.holder === branch) ??
      this.slots.find((candidate) => candidate.holder === undefined && candidate.branch === branch) ??
      this.slots.find((candidate) => candidate.holder === undefined);
    let added = slot === undefined;
    if (!slot) {
      slot = { folder: this.newFolder(), setUp: false };
      this.slots.push(slot);
    }
    slot.holder = branch;
    // A worktree an earlier goal of the repository left idle: switched, not checked out again.
    if (added && this.idle && (await this.idle.adopt(slot.folder))) added = false;
    const place = (created: boolean): PoolPlace => ({
      folder: slot.folder,
      created,
      added,
      setUp: slot.setUp,
    });
    try {
      if (added) {
        await addWorktree({
          top: this.top,
          folder: slot.folder,
          branch,
          start: start ?? (await this.startOf(branch)),
        });
        slot.branch = branch;
        return place(true);
      }
      if (start === undefined && slot.branch === branch) {
        const { hasIndex } = await unlockWorktree(this.top, slot.folder);
        if (hasIndex) return place(false);
      }
      const switched = await switchWorktree({
        top: this.top,
        folder: slot.folder,
        branch,
        start: start ?? (await this.startOf(branch)),
        keep: this.keep,
        keepIgnored: this.keepIgnored,
        clean: slot.clean !== true,
      });
      slot.branch = branch;
      slot.clean = false;
      return { ...place(true), ...switched };
    } catch (error) {
      if (added) throw error;
      // A slot git cannot switch (its folder damaged): made again.
      await addWorktree({
        top: this.top,
        folder: slot.folder,
        branch,
        start: start ?? (await this.startOf(branch)),
      });
      slot.branch = branch;
      slot.setUp = false;
      return { ...place(true), setUp: false };
    }
  }

  /** The task's setup command ran in its slot: it does not run there again. */
  setUpDone(branch: string): void {
    const slot = this.slots.find((candidate) => candidate.holder === branch);
    if (slot) slot.setUp = true;
  }

  /** The task of `branch` is merged: its slot is free for the next task. */
  release(branch: string): void {
    const slot = this.slots.find((candidate) => candidate.holder === branch);
    if (slot) slot.holder = undefined;
  }

  /**
   * The end of the goal: every slot goes back to the repository's idle worktrees, clean, up to the
   * bound (the rest removed); without them, every slot is removed. The branches stay.
   */
  async removeAll(): Promise<void> {
    this.found ??= this.find();
    await this.found;
    for (const slot of this.slots.splice(0)) {
      if (this.idle)
        await this.idle.park(slot.folder, {
          bound: this.idleBound,
          keep: this.keep,
          keepIgnored: this.keepIgnored,
        });
      else await removeWorktree(this.top, slot.folder);
    }
    await rmdir(this.folder).catch(() => {});
  }

  /** A branch that exists is continued as it is; one that does not starts at the goal branch. */
  private async startOf(branch: string): Promise<string | undefined> {
    const exists = await gitOutcome(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
      cwd: this.top,
    });
    return exists.code === 0 ? undefined : this.goalRef;
  }

  /** The goal's worktrees a killed process left, as slots; half-registered ones removed. */
  private async find(): Promise<void> {
    await this.ahead.done();
    this.leftFolders = await readdir(this.folder).catch(() => [] as string[]);
    // Only what this process made ahead just now is there: free slots, clean, nothing to ask git.
    const madeAhead = this.ahead.take(this.folder);
    if (madeAhead && sameNames(this.leftFolders, madeAhead)) {
      for (const folder of madeAhead) this.slots.push({ folder, setUp: false, clean: true });
      return;
    }
    const listed = await listWorktrees(this.top);
    // A folder of the goal git does not list: a `worktree add` killed before it registered the
    // folder, leaving a locked registration git never prunes. Removed with it; its name is free.
    for (const name of this.leftFolders) {
      const folder = path.join(this.folder, name);
      if (listed.some((entry) => entry.path === folder)) continue;
      await removeWorktree(this.top, folder);
      this.leftFolders = this.leftFolders.filter((left) => left !== name);
    }
    for (const entry of listed) {
      if (!entry.path.startsWith(`${this.folder}${path.sep}`)) continue;
      const branch = entry.branch?.replace(/^refs\/heads\//, '');
      if (entry.prunable) {
        await removeWorktree(this.top, entry.path);
        continue;
      }
      const slot: Slot = { folder: entry.path, branch, holder: branch, setUp: false };
      this.slots.push(slot);
      const { hasIndex } = await unlockWorktree(this.top, entry.path);
      if (!hasIndex) continue;
      // Detached: made ahead of the goal (GoalWorktrees.prewarm), no task's work in it.
      if (!branch) continue;
      const merged = await gitOutcome(['merge-base', '--is-ancestor', `refs/heads/${branch}`, this.goalRef], {
        cwd: this.top,
      });
      if (merged.code === 0 && (await worktreeClean(entry.path, this.keep))) slot.holder = undefined;
    }
  }

  /** A slot folder no slot and no leftover folder uses (synchronous: two new slots never share one). */
  private newFolder(): string {
    const present = new Set(this.leftFolders);
    for (const slot of this.slots) present.add(path.basename(slot.folder));
    let index = 1;
    while (present.has(`slot-${index}`)) index += 1;
    return path.join(this.folder, `slot-${index}`);
  }
}

/** Whether the folder's entries are exactly those folders (by name). */
function sameNames(entries: readonly string[], folders: readonly string[]): boolean {
  const names = new Set(folders.map((folder) => path.basename(folder)));
  return entries.length === names.size && entries.every((entry) => names.has(entry));
}
