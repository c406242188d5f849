import { readdir, readFile, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { gitOutcome } from './git.js';
import {
  commitIdentity,
  commitOf,
  ensureGoalBranch,
  goalBranch,
  refPart,
  taskBranch,
} from './goal-branch.js';
import { conflictSides, describeConflict, type MergeConflictFile, mergeBranch } from './merge-task.js';
import { findRepository } from './repository.js';
import {
  addWorktree,
  commitExclusions,
  commitWorktree,
  listWorktrees,
  mergeInProgress,
  removeWorktree,
  worktreesFolder,
} from './worktree.js';
import { aheadOfGoals, WorktreePool } from './worktree-pool.js';
import { type SetupResult, setUpWorktree, type WorktreeSetup } from './worktree-setup.js';

/** Where one task works: its worktree, its branch, and its workspace folder inside the worktree. */
export interface TaskPlace {
  taskId: string;
  branch: string;
  /** The worktree's top folder. */
  folder: string;
  /** The task's workspace: the worktree, or the workspace's subfolder in it. */
  root: string;
  /** Made now (not a worktree a crashed process left that is continued). */
  created: boolean;
  /** A worktree of the pool switched to the task (not one added now). */
  reused: boolean;
  /** The worktree.setup command is to run in it (a slot it has not run in yet). */
  needsSetup: boolean;
  /** What was linked and copied from the main checkout (on creation). */
  setup?: SetupResult;
  /** The pathspecs that keep those links and copies out of its commits. */
  excluded: string[];
}

/**
 * Takes away the ref locks a killed process left on a goal's branches (`git` makes
 * `refs/heads/<branch>.lock` while it moves a branch): the goal branch's (a merge killed while it
 * moved it) and its tasks' (`git worktree add -B` or a commit killed while it made or moved a task's
 * branch; a task's worktree that git never registered leaves its branch's lock behind). Only the
 * process running the goal moves its branches, so a lock there when the goal opens is stale.
 */
async function clearGoalRefLocks(commonDir: string, goal: string): Promise<void> {
  const folder = path.join(commonDir, 'refs', 'heads', path.dirname(goal));
  const name = path.basename(goal);
  const entries = await readdir(folder).catch(() => [] as string[]);
  for (const entry of entries) {
    if (entry === `${name}.lock` || (entry.startsWith(`${name}.`) && entry.endsWith('.lock')))
      await unlink(path.join(folder, entry)).catch(() => {});
  }
}

/** How merging a task went, as the orchestrator needs it. */
export type TaskMerge =
  | { kind: 'merged' | 'already-merged'; commit: string }
  | { kind: 'conflict'; files: MergeConflictFile[]; description: string };

/**
 * One goal's git work: its branch `taskweave/<goal>` (from the user's HEAD, never touching the
 * user's checkout, index or branch), a worktree per running task on `taskweave/<goal>.<task>`
 * started from the goal branch when the task is ready (a slot of the goal's WorktreePool: made
 * once, switched from task to task), each changing step committed there, and the task merged
 * back (in turn, one at a time) once its check passed.
 */
export class GoalWorktrees {
  private mergeTail: Promise<unknown> = Promise.resolve();
  private readonly places = new Map<string, TaskPlace>();
  private readonly pool: WorktreePool;
  private identity: Promise<Record<string, string>> | undefined;
  /**
   * Tasks resolving a merge conflict in their worktree, with the conflicting files (paths from
   * the worktree's top): their steps are committed (concluding the merge) only once no file
   * holds a conflict marker.
   */
  private readonly resolving = new Map<string, string[]>();

  private constructor(
    readonly goalId: string,
    /** The main checkout's top folder. */
    readonly top: string,
    /** The workspace's path inside the repository (`''` or `sub/`). */
    private readonly prefix: string,
    private readonly folder: string,
    private readonly setup: WorktreeSetup,
    /** The goal branch's start (the user's HEAD, or the uncommitted changes on top). */
    readonly base: string,
  ) {
    this.pool = new WorktreePool(
      top,
      folder,
      `refs/heads/${this.branch}`,
      [...setup.share, ...setup.copy].map((name) => `${prefix}${name}`),
      setup.setup !== undefined,
    );
  }

  /** The goal branch. */
  get branch(): string {
    return goalBranch(this.goalId);
  }

  /**
   * Starts (or, when its branch exists, continues) a goal in the repository the workspace is in;
   * undefined when there is none or it has no commit. `from`: the goal branch of the plan this
   * one revises, which it continues.
   */
  static async open(options: {
    workspaceRoot: string;
    goalId: string;
    includeUncommitted?: boolean;
    from?: string;
    setup: WorktreeSetup;
  }): Promise<GoalWorktrees | undefined> {
    const repository = await findRepository(options.workspaceRoot);
    if (!repository) return undefined;
    const goal = await ensureGoalBranch({
      top: repository.top,
      goalId: options.goalId,
      includeUncommitted: options.includeUncommitted,
      from: options.from,
    });
    const worktrees = await worktreesFolder(repository.top);
    await clearGoalRefLocks(path.join(worktrees, '..', '..'), goalBranch(options.goalId));
    const folder = path.join(worktrees, refPart(options.goalId));
    return new GoalWorktrees(
      options.goalId,
      repository.top,
      repository.prefix,
      folder,
      options.setup,
      goal.commit,
    );
  }

  /**
   * Starts checking out the first worktrees of a goal (`count`, one by default) before the goal
   * starts (its plan waits for approval): at the commit the goal branch will start from (`from`,
   * else HEAD), detached, in the goal's folder; the goal's first tasks then only switch them. Nothing outside a repository
   * with a commit. Nothing of the user's checkout, index or branches is touched.
   */
  static prewarm(options: { workspaceRoot: string; goalId: string; from?: string; count?: number }): {
    ready: Promise<void>;
    discard: () => Promise<void>;
  } {
    let made: { top: string; folders: string[] } | undefined;
    const ready = aheadOfGoals(async () => {
      const repository = await findRepository(options.workspaceRoot);
      if (!repository) return;
      const start = await commitOf(repository.top, options.from ?? 'HEAD');
      if (!start) return;
      const goalFolder = path.join(await worktreesFolder(repository.top), refPart(options.goalId));
      // A goal continued (resumed) has its worktrees already.
      const known = await listWorktrees(repository.top);
      if (known.some((entry) => entry.path.startsWith(`${goalFolder}${path.sep}`))) return;
      const count = Math.max(1, options.count ?? 1);
      const folders = Array.from({ length: count }, (_, index) => path.join(goalFolder, `slot-${index + 1}`));
      made = { top: repository.top, folders };
      await Promise.all(folders.map((folder) => addWorktree({ top: repository.top, folder, start })));
    });
    return {
      ready,
      discard: async () => {
        await ready.catch(() => {});
        if (!made) return;
        for (const folder of made.folders) await removeWorktree(made.top, folder);
        // The goal's folder too, when nothing else is in it.
        await rmdir(path.dirname(made.folders[0] ?? '')).catch(() => {});
      },
    };
  }

  /**
   * The task's worktree, its branch started at the goal branch as it is now when `fresh` (the
   * task starts or is retried: it gets its dependencies' merged work), else the one it had
   * (continued after a crash, or to resolve a conflict). A slot of the goal's pool.
   */
  async placeFor(taskId: string, options: { fresh: boolean }): Promise<TaskPlace> {
    const branch = taskBranch(this.goalId, taskId);
    const taken = await this.pool.take(branch, options.fresh ? `refs/heads/${this.branch}` : undefined);
    const root = path.join(taken.folder, this.prefix);
    const place: TaskPlace = {
      taskId,
      branch,
      folder: taken.folder,
      root,
      created: taken.created,
      reused: !taken.added,
      needsSetup: taken.created && !taken.setUp && this.setup.setup !== undefined,
      excluded: [],
    };
    if (taken.created) {
      place.setup = await setUpWorktree({
        mainRoot: path.join(this.top, this.prefix),
        taskRoot: root,
        share: this.setup.share,
        copy: this.setup.copy,
      });
    }
    // A task killed while it resolved a conflict: the merge is still open in its worktree.
    const merge = taken.created ? undefined : await mergeInProgress(taken.folder);
    if (merge?.merging) this.resolving.set(taskId, merge.unmerged);
    else this.resolving.delete(taskId);
    place.excluded = await commitExclusions(
      taken.folder,
      [...this.setup.share, ...this.setup.copy].map((name) => `${this.prefix}${name}`),
    );
    this.places.set(taskId, place);
    return place;
  }

  /** The task's setup command ran in its worktree: it does not run there for a later task. */
  setUpDone(taskId: string): void {
    this.pool.setUpDone(taskBranch(this.goalId, taskId));
  }

  /** A task's branch. */
  taskBranchOf(taskId: string): string {
    return taskBranch(this.goalId, taskId);
  }

  /** The commit a task's branch is at (empty when it has none yet). */
  async tipOf(taskId: string): Promise<string> {
    return (await commitOf(this.top, `refs/heads/${this.taskBranchOf(taskId)}`)) ?? '';
  }

  /** The setup command of a new worktree, if the config names one. */
  get setupCommand(): string | undefined {
    return this.setup.setup;
  }

  /** Commits what a step changed in the task's worktree (a checkpoint); the commit, if any. */
  async commitStep(taskId: string, message: string): Promise<string | undefined> {
    const place = this.places.get(taskId);
    if (!place) return undefined;
    const resolving = this.resolving.has(taskId);
    // A merge with conflict markers left is not committed: the markers would be merged as text.
    if (resolving && (await this.unresolvedFiles(taskId)).length > 0) return undefined;
    const commit = await commitWorktree({
      folder: place.folder,
      // Concluding the merge of the goal branch: the commit says so.
      message: resolving ? `${message}: merges ${this.branch}, its conflict resolved` : message,
      excluded: place.excluded,
      identity: await this.commitIdentity(),
      concludeMerge: resolving,
    });
    this.resolving.delete(taskId);
    return commit;
  }

  /**
   * The conflict choice `resolve`: the goal branch as it is now is merged into the task's branch
   * in its worktree (`git merge`), leaving conflict markers in the files both changed, for the
   * model to resolve; its next commit concludes the merge. The files (paths from the task's
   * workspace) and both sides of each; no files when the merge went through now (the goal
   * branch moved on).
   */
  async startResolve(taskId: string): Promise<{ files: string[]; description: string }> {
    const place = this.places.get(taskId);
    if (!place) throw new Error(`Task ${taskId} has no worktree to resolve its conflict in.`);
    const goalTip = await commitOf(this.top, `refs/heads/${this.branch}`);
    const taskTip = await commitOf(place.folder, 'HEAD');
    if (!goalTip || !taskTip) throw new Error(`The branches of task ${taskId} are gone.`);
    const merged = await gitOutcome(
      [
        'merge',
        '--no-ff',
        '--no-edit',
        '-m',
        `taskweave: ${taskId} merges ${this.branch} to resolve the conflict`,
        goalTip,
      ],
      { cwd: place.folder, env: await this.commitIdentity() },
    );
    if (merged.code === 0) return { files: [], description: '' };
    const { unmerged } = await mergeInProgress(place.folder);
    if (unmerged.length === 0)
      throw new Error(
        `git merge of ${this.branch} into ${place.branch} failed: ${merged.stderr.trim() || merged.stdout.trim()}`,
      );
    this.resolving.set(taskId, unmerged);
    const sides = await conflictSides(this.top, goalTip, taskTip, unmerged);
    return {
      files: unmerged.map((file) => this.fromWorkspace(file)),
      description: describeConflict(
        sides.map((side) => ({ ...side, path: this.fromWorkspace(side.path) })),
        { goal: this.branch, task: place.branch },
      ),
    };
  }

  /** Whether the task is resolving a merge conflict in its worktree (the merge not concluded yet). */
  isResolving(taskId: string): boolean {
    return this.resolving.has(taskId);
  }

  /** The conflicting files of a task resolving a conflict that still hold a conflict marker (paths from its workspace). */
  async unresolvedFiles(taskId: string): Promise<string[]> {
    const place = this.places.get(taskId);
    const files = this.resolving.get(taskId);
    if (!place || !files) return [];
    const left: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(place.folder, file), 'utf8').catch(() => '');
      if (/^(<{7}|>{7})( |$)/m.test(text)) left.push(this.fromWorkspace(file));
    }
    return left;
  }

  /** Who commits (the user's git identity, else taskweave's), asked once per goal. */
  private commitIdentity(): Promise<Record<string, string>> {
    this.identity ??= commitIdentity(this.top);
    return this.identity;
  }

  /** A path from the worktree's top as the task sees it (from its workspace). */
  private fromWorkspace(file: string): string {
    return this.prefix && file.startsWith(this.prefix) ? file.slice(this.prefix.length) : file;
  }

  /**
   * Merges a task's branch into the goal branch (after its check passed), one merge at a time.
   * A task merged already (before a crash) is not merged again.
   */
  mergeTask(taskId: string, title: string): Promise<TaskMerge> {
    const merge = this.mergeTail.then(async (): Promise<TaskMerge> => {
      const branch = taskBranch(this.goalId, taskId);
      const outcome = await mergeBranch({
        top: this.top,
        into: this.branch,
        from: branch,
        message: `taskweave: merge task ${taskId} (${title})`,
        identity: await this.commitIdentity(),
      });
      if (outcome.kind !== 'conflict') return outcome;
      return {
        ...outcome,
        description: describeConflict(outcome.files, { goal: this.branch, task: branch }),
      };
    });
    this.mergeTail = merge.catch(() => {});
    return merge;
  }

  /**
   * The task is merged: its worktree goes back to the pool for the next task (its files stay
   * until then; its branch stays). A failed task's worktree is not released: it stays until the
   * goal ends, for the user to look at and for the task's retry.
   */
  releaseTask(taskId: string): void {
    this.pool.release(taskBranch(this.goalId, taskId));
    this.places.delete(taskId);
  }

  /** The end of the goal: every worktree of its pool is removed; the branches stay. */
  async end(): Promise<void> {
    this.places.clear();
    await this.pool.removeAll();
  }
}
