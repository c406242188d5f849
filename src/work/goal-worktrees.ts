import { readdir, readFile, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { git, gitOutcome } from './git.js';
import {
  commitIdentity,
  commitOf,
  ensureGoalBranch,
  goalBranch,
  goalTrailer,
  refPart,
  taskBranch,
} from './goal-branch.js';
import { GoalRemote } from './goal-remote.js';
import { IDLE_FOLDER, IdleWorktrees } from './idle-worktrees.js';
import type { HeldClaim } from './isolation.js';
import {
  conflictSides,
  describeConflict,
  type MergeConflictFile,
  type MergeOutcome,
  mergeBranch,
} from './merge-task.js';
import type { CloneRemote } from './repo-clone.js';
import { findRepository } from './repository.js';
import {
  addWorktree,
  commitExclusions,
  commitWorktree,
  listWorktrees,
  mergeInProgress,
  removeWorktree,
  worktreesIn,
} from './worktree.js';
import { WorktreePool } from './worktree-pool.js';
import { type SetupResult, setUpWorktree, type WorktreeSetup } from './worktree-setup.js';
import type { WorktreesAhead } from './worktrees-ahead.js';

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
  /** The commit its branch was started at now, when it was (re)started by a switch. */
  commit?: string;
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
  | { kind: 'merged' | 'already-merged' | 'unchanged'; commit: string }
  | { kind: 'conflict'; files: MergeConflictFile[]; description: string };

/** How many times a merge lost the race to another machine's push is tried again before it fails. */
export const MERGE_PUSH_ATTEMPTS = 20;

/**
 * One goal's git work: its branch `taskweave/<goal>` (from the user's HEAD, never touching the
 * user's checkout, index or branch), a worktree per running task on `taskweave/<goal>.<task>`
 * started from the goal branch when the task is ready (a slot of the goal's WorktreePool: made
 * once, switched from task to task), each changing step committed there, and the task merged
 * back (in turn, one at a time) once its check passed.
 */
export class GoalWorktrees {
  private mergeTail: Promise<unknown> = Promise.resolve();
  /**
   * The goal branch's tip as the goal was opened (its base), until anything moves the branch
   * (a merge, a fetch: see inMergeTurn). Only the process running the goal moves its branches,
   * so the first tasks start at it without asking git.
   */
  private openedTip: string | undefined;
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
    ahead: WorktreesAhead,
    /** How many worktrees stay idle for the repository's next goals when this one ends (the concurrency). */
    idleBound: number,
    /** The remote the goal's branches travel through (`--repo`), when several machines work on it. */
    private readonly remote?: GoalRemote,
  ) {
    this.openedTip = base;
    this.pool = new WorktreePool({
      top,
      folder,
      goalRef: `refs/heads/${this.branch}`,
      keep: [...setup.share, ...setup.copy].map((name) => `${prefix}${name}`),
      keepIgnored: setup.setup !== undefined,
      ahead,
      idle: new IdleWorktrees(top, path.join(path.dirname(folder), IDLE_FOLDER)),
      idleBound,
    });
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
    /** The worktrees the runtime is making ahead of goals (prewarm): waited for before they are read. */
    ahead: WorktreesAhead;
    /**
     * The git remote (its name in the clone) the goal's branches are fetched from and pushed
     * to: the remote's goal branch and task branches are the truth, this clone's a copy.
     */
    remote?: CloneRemote;
    /** Runs before each push of the goal branch (tests: another machine's merge landing first). */
    beforeGoalPush?: () => Promise<void>;
    /** This worker's claim on the goal (see `claim`). */
    claim?: HeldClaim;
    /** The goal's text: each merge commit carries it, for `apply` to name the goal by it. */
    goal?: string;
    /** How many of its worktrees stay idle for the repository's next goals (the concurrency; 1 by default). */
    idleBound?: number;
  }): Promise<GoalWorktrees | undefined> {
    const repository = await findRepository(options.workspaceRoot);
    if (!repository) return undefined;
    const common = repository.commonDir;
    await clearGoalRefLocks(common, goalBranch(options.goalId));
    const worktrees = worktreesIn(common);
    const folder = path.join(worktrees, refPart(options.goalId));
    const remote =
      options.remote === undefined
        ? undefined
        : new GoalRemote(repository.top, options.remote.name, options.beforeGoalPush, options.remote.env);
    const from = remote
      ? await syncFromRemote(remote, {
          top: repository.top,
          goalId: options.goalId,
          folder,
          ahead: options.ahead,
        })
      : undefined;
    const goal = await ensureGoalBranch({
      top: repository.top,
      goalId: options.goalId,
      includeUncommitted: remote ? false : options.includeUncommitted,
      from: options.from ?? from,
      index: repository.index,
    });
    let base = goal.commit;
    if (remote && goal.created && (await remote.push(goal.branch, '')) === 'rejected') {
      // Another machine started the goal at the same moment: its branch is the goal's.
      const tips = await remote.fetchGoal(goal.branch);
      base = tips.get(goal.branch) ?? base;
      await git(['update-ref', `refs/heads/${goal.branch}`, base], { cwd: repository.top });
    }
    const goalWorktrees = new GoalWorktrees(
      options.goalId,
      repository.top,
      repository.prefix,
      folder,
      options.setup,
      base,
      options.ahead,
      Math.max(1, options.idleBound ?? 1),
      remote,
    );
    goalWorktrees.claim = options.claim;
    goalWorktrees.goalText = options.goal;
    return goalWorktrees;
  }

  /**
   * Starts checking out the first worktrees of a goal (`count`, one by default) before the goal
   * starts (its plan waits for approval): at the commit the goal branch will start from (`from`,
   * else HEAD), detached, in the goal's folder; the goal's first tasks then only switch them. Nothing outside a repository
   * with a commit. Nothing of the user's checkout, index or branches is touched.
   */
  static prewarm(options: {
    workspaceRoot: string;
    goalId: string;
    from?: string;
    count?: number;
    /** The runtime's worktrees made ahead: the goal's pool waits for these. */
    ahead: WorktreesAhead;
  }): {
    ready: Promise<void>;
    discard: () => Promise<void>;
  } {
    let made: { top: string; folders: string[]; goalFolder: string } | undefined;
    const ready = options.ahead.run(async () => {
      const repository = await findRepository(options.workspaceRoot);
      if (!repository) return;
      const [start, known] = await Promise.all([
        commitOf(repository.top, options.from ?? 'HEAD'),
        listWorktrees(repository.top),
      ]);
      if (!start) return;
      const goalFolder = path.join(worktreesIn(repository.commonDir), refPart(options.goalId));
      // A goal continued (resumed) has its worktrees already.
      if (known.some((entry) => entry.path.startsWith(`${goalFolder}${path.sep}`))) return;
      const count = Math.max(1, options.count ?? 1);
      const folders = Array.from({ length: count }, (_, index) => path.join(goalFolder, `slot-${index + 1}`));
      made = { top: repository.top, folders, goalFolder };
      // A worktree an earlier goal left idle is taken first: detached at the start, only the files that differ rewritten.
      const idle = new IdleWorktrees(repository.top, path.join(path.dirname(goalFolder), IDLE_FOLDER));
      const adopted = await idle.adoptEach(folders, { listed: known });
      await Promise.all(
        folders.map(async (folder, index) => {
          if (adopted[index])
            await git(['checkout', '--quiet', '--force', '--detach', start], { cwd: folder });
          else await addWorktree({ top: repository.top, folder, start });
        }),
      );
      options.ahead.record(goalFolder, folders);
    });
    return {
      ready,
      discard: async () => {
        await ready.catch(() => {});
        if (!made) return;
        options.ahead.take(made.goalFolder);
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
    // A task starts from the goal branch as the remote has it now (other machines' merges in it):
    // fetched, unless a fetch began after this task asked (tasks started together share one).
    const remote = this.remote;
    if (remote && options.fresh) {
      const asked = remote.fetchMark();
      await this.inMergeTurn(() => this.pullGoal(!remote.fetchedSince(asked)));
    }
    const start = options.fresh ? (this.openedTip ?? `refs/heads/${this.branch}`) : undefined;
    const taken = await this.pool.take(branch, start);
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
      ...(taken.commit === undefined ? {} : { commit: taken.commit }),
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
    // Pushed at once: a worker that takes the task over after this one died continues from here.
    // (Not by a worker that lost the goal to another; a rejection is settled at the merge.)
    if (commit && this.remote && (await this.claim?.stillHolds()) !== false)
      await this.remote.pushTask(place.branch, commit);
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
    return this.inMergeTurn(async (): Promise<TaskMerge> => {
      const branch = taskBranch(this.goalId, taskId);
      const outcome = this.remote
        ? await this.mergeAndPush(branch, taskId, title)
        : await this.mergeLocally(branch, taskId, title);
      if (outcome.kind !== 'conflict') return outcome;
      return {
        ...outcome,
        description: describeConflict(outcome.files, { goal: this.branch, task: branch }),
      };
    });
  }

  /** How many times a merge of this goal lost the race for the remote's goal branch and was made again. */
  lostRaces = 0;

  /**
   * Asked before each push to the remote: whether this worker still holds the goal (its claim
   * in the store, with the fencing token). A worker that stalled past its lease and woke up
   * pushes nothing more: the worker that took the goal over merges its tasks.
   */
  claim: HeldClaim | undefined;
  /** The goal's text, as the user gave it (see goalTrailer). */
  private goalText: string | undefined;

  private async mustHold(taskId: string): Promise<void> {
    if (this.claim && !(await this.claim.stillHolds()))
      throw new Error(
        `This worker no longer holds the goal (another worker took it over): task ${taskId} is not pushed or merged from here.`,
      );
  }

  private async mergeLocally(
    branch: string,
    taskId: string,
    title: string,
    tips: { target?: string; source?: string } = {},
  ): Promise<MergeOutcome> {
    return mergeBranch({
      top: this.top,
      into: this.branch,
      from: branch,
      message: `taskweave: merge task ${taskId} (${title})${this.goalText === undefined ? '' : `\n\n${goalTrailer(this.goalText)}`}`,
      identity: await this.commitIdentity(),
      ...tips,
    });
  }

  /**
   * The merge when several machines share the goal: the task's branch is pushed, the goal branch
   * fetched, the task merged into the remote's tip, and the goal branch pushed only if the remote
   * still has that tip (compare and swap). A lost race (another machine pushed between the fetch
   * and the push) fetches again and merges again, so no machine's merge is lost; a task the
   * remote's goal branch holds already is not merged twice.
   */
  private async mergeAndPush(branch: string, taskId: string, title: string): Promise<MergeOutcome> {
    const remote = this.remote as GoalRemote;
    await this.mustHold(taskId);
    // The task's commits are all made: its branch stays where it is now through the merge.
    const source = await commitOf(this.top, `refs/heads/${branch}`);
    if ((await remote.pushTask(branch, source)) === 'rejected') {
      // Moved by a worker that held the task before this one (it stalled past its lease and
      // pushed on): this worker holds the task now, so its branch is the task's.
      await remote.fetchGoal(this.branch);
      await this.mustHold(taskId);
      if ((await remote.pushTask(branch, source)) === 'rejected')
        throw new Error(`Another worker keeps moving ${branch} on the remote: the task is not merged here.`);
    }
    for (let attempt = 1; attempt <= MERGE_PUSH_ATTEMPTS; attempt += 1) {
      // The first attempt merges into the tip this machine last saw (its own last push, or the
      // fetch the goal started with): another machine moves the goal branch only after taking
      // the goal over, and then the push is refused and the next attempt fetches.
      const expected = await this.pullGoal(attempt > 1);
      // The clone's goal branch is at `expected` now (when the remote has one): not read again.
      const outcome = await this.mergeLocally(branch, taskId, title, {
        source,
        target: expected === '' ? undefined : expected,
      });
      if (outcome.kind === 'conflict') return outcome;
      if (outcome.commit === expected) return outcome;
      await this.mustHold(taskId);
      if ((await remote.push(this.branch, expected, { goal: true, local: outcome.commit })) === 'pushed')
        return outcome;
      this.lostRaces += 1;
    }
    throw new Error(
      `The goal branch ${this.branch} moved on the remote ${MERGE_PUSH_ATTEMPTS} times while task ${taskId} was merged into it.`,
    );
  }

  /**
   * The goal branch as the remote has it now (or, unless `fetch`, as this machine last saw it
   * when its goal branch is still there), made this clone's goal branch (only this
   * process's merges move it here, one at a time, and each was pushed or is made again).
   * Returns the remote's tip (`''` when the remote has no goal branch yet).
   */
  private async pullGoal(fetch: boolean): Promise<string> {
    const remote = this.remote as GoalRemote;
    const known = fetch ? undefined : remote.knownTip(this.branch);
    if (known !== undefined && known === ((await commitOf(this.top, `refs/heads/${this.branch}`)) ?? ''))
      return known;
    const tips = await remote.fetchGoal(this.branch);
    const tip = tips.get(this.branch);
    if (tip) await git(['update-ref', `refs/heads/${this.branch}`, tip], { cwd: this.top });
    return tip ?? '';
  }

  /** Work on the goal branch one at a time (merges, and fetches that move it). */
  private inMergeTurn<T>(work: () => Promise<T>): Promise<T> {
    // The branch may move from here on: its tip is read from git again.
    this.openedTip = undefined;
    const turn = this.mergeTail.then(work);
    this.mergeTail = turn.catch(() => {});
    return turn;
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

  /** The end of the goal: every worktree of its pool goes idle for the repository's next goals (up to the bound) or is removed; the branches stay. */
  async end(): Promise<void> {
    this.places.clear();
    await this.pool.removeAll();
  }
}

/**
 * A goal's branches as the remote has them, made this clone's before the goal starts or
 * continues here: what a killed worker of this machine left in the goal's worktrees is dropped
 * (the remote's last pushed commit is where work goes on), the remote's goal and task branches
 * become the local ones, task branches the remote lacks are deleted. Returns the commit a new
 * goal branch starts at (the remote's default branch).
 */
async function syncFromRemote(
  remote: GoalRemote,
  options: { top: string; goalId: string; folder: string; ahead: WorktreesAhead },
): Promise<string | undefined> {
  const { top } = options;
  const base = await remote.fetchBase();
  // Worktrees made ahead while the plan waited (detached, nothing in them) are left to the pool;
  // a task's worktree a killed worker left would hold its branch as it was here, not as pushed.
  await options.ahead.done();
  for (const entry of await listWorktrees(top))
    if (entry.path.startsWith(`${options.folder}${path.sep}`) && entry.branch !== undefined)
      await removeWorktree(top, entry.path);
  const branch = goalBranch(options.goalId);
  const tips = await remote.fetchGoal(branch);
  const local = (
    await git(['for-each-ref', '--format=%(refname)', `refs/heads/${branch}`, `refs/heads/${branch}.*`], {
      cwd: top,
    })
  )
    .toString('utf8')
    .split('\n')
    .filter((ref) => ref !== '');
  for (const ref of local)
    if (!tips.has(ref.slice('refs/heads/'.length))) await git(['update-ref', '-d', ref], { cwd: top });
  for (const [name, commit] of tips) await git(['update-ref', `refs/heads/${name}`, commit], { cwd: top });
  return base;
}
