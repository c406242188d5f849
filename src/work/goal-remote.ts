import { git, gitOutcome } from './git.js';
import { commitOf } from './goal-branch.js';

/** How pushing a branch went: `rejected` when the remote's branch was not where it was expected. */
export type PushOutcome = 'pushed' | 'rejected';

/**
 * A goal's branches on a git remote, for goals that several machines work on (`--repo`): the
 * remote holds the truth, each machine's clone a copy. Fetched refs land in the remote's
 * tracking refs (`refs/remotes/<remote>/taskweave/…`) and are copied to local branches only
 * where the caller says, so a fetch never moves a branch a worktree has checked out. Every push
 * is a compare and swap (`--force-with-lease=<ref>:<expected>`): it moves the remote's branch
 * only from the commit this machine last saw there.
 */
export class GoalRemote {
  /** The remote's tips as last fetched or pushed, by branch (`''`: the remote has no such branch). */
  private readonly known = new Map<string, string>();
  /** How many fetches of a goal have started (fetchGoal), and the number of the last that ended well. */
  private fetchesStarted = 0;
  private lastFetched = 0;

  constructor(
    /** The clone's top folder. */
    readonly top: string,
    /** The remote's name in the clone (`origin`). */
    readonly remote: string,
    /**
     * Runs just before each push of a goal branch. Instrumentation for tests: another machine's
     * merge landing between this one's fetch and its push (a lost race).
     */
    private readonly beforeGoalPush?: () => Promise<void>,
    /** git's environment for the remote: its credentials (CloneRemote.env), never in argv or config. */
    private readonly env?: Record<string, string>,
  ) {}

  /** The environment option of a git command that talks to the remote. */
  private remoteEnv(): { env?: Record<string, string> } {
    return this.env === undefined ? {} : { env: this.env };
  }

  /** The tracking ref of a branch of the remote. */
  trackingRef(branch: string): string {
    return `refs/remotes/${this.remote}/${branch}`;
  }

  /**
   * Fetches `branch` with every branch named `<branch>.<…>` (a goal and its tasks) into tracking
   * refs. Returns the remote's tips of those branches; a branch
   * the remote no longer has loses its tracking ref.
   */
  async fetchGoal(branch: string): Promise<Map<string, string>> {
    this.fetchesStarted += 1;
    const number = this.fetchesStarted;
    // One pattern for the goal and its tasks: `<branch>*` matches the branch itself too, and a
    // pattern that matches nothing is no error (the goal not pushed yet). It may also match
    // another goal whose name starts with this one's; those are left out below.
    await git(
      ['fetch', '--no-tags', '--prune', this.remote, `+refs/heads/${branch}*:${this.trackingRef(branch)}*`],
      { cwd: this.top, ...this.remoteEnv() },
    );
    const tips = new Map<string, string>();
    const printed = (
      await git(
        [
          'for-each-ref',
          '--format=%(objectname) %(refname)',
          this.trackingRef(branch),
          `${this.trackingRef(branch)}.*`,
        ],
        { cwd: this.top },
      )
    ).toString('utf8');
    const prefix = `refs/remotes/${this.remote}/`;
    for (const line of printed.split('\n')) {
      const [commit, ref] = line.split(' ');
      if (!commit || !ref?.startsWith(prefix)) continue;
      const name = ref.slice(prefix.length);
      if (name !== branch && !name.startsWith(`${branch}.`)) continue;
      tips.set(name, commit);
    }
    if (!tips.has(branch)) this.known.set(branch, '');
    for (const [name, commit] of tips) this.known.set(name, commit);
    this.lastFetched = Math.max(this.lastFetched, number);
    return tips;
  }

  /** Fetches the remote's default branch; the commit a new goal starts from (undefined when the remote is empty). */
  async fetchBase(): Promise<string | undefined> {
    await git(['fetch', '--no-tags', this.remote], { cwd: this.top, ...this.remoteEnv() });
    return (
      (await commitOf(this.top, `refs/remotes/${this.remote}/HEAD`)) ?? (await commitOf(this.top, 'HEAD'))
    );
  }

  /**
   * Pushes a local branch to the remote only if the remote's branch is still at `expected`
   * (`''`: it must not exist). `rejected` when it moved meanwhile (another machine pushed).
   */
  async push(
    branch: string,
    expected: string,
    options: { goal?: boolean; local?: string } = {},
  ): Promise<PushOutcome> {
    const local = options.local ?? (await commitOf(this.top, `refs/heads/${branch}`));
    if (!local) throw new Error(`The branch ${branch} does not exist to be pushed.`);
    if (options.goal) await this.beforeGoalPush?.();
    const pushed = await gitOutcome(
      [
        'push',
        '--porcelain',
        '--no-verify',
        `--force-with-lease=refs/heads/${branch}:${expected}`,
        this.remote,
        `${local}:refs/heads/${branch}`,
      ],
      { cwd: this.top, ...this.remoteEnv() },
    );
    if (pushed.code === 0) {
      // git has moved the tracking ref too (the clone's fetch refspec maps the branch to it).
      this.known.set(branch, local);
      return 'pushed';
    }
    // `--porcelain` marks a ref the remote did not take with `!`: the lease did not hold, or the
    // remote found its branch moved when it locked it (another push landed in between).
    if (pushed.stdout.split('\n').some((line) => line.startsWith('!'))) return 'rejected';
    throw new Error(`git push of ${branch} failed: ${pushed.stderr.trim() || pushed.stdout.trim()}`);
  }

  /**
   * Pushes a task's branch where this machine last saw it on the remote. A rejection means
   * another worker moved it (it took the task over): this one's commits are not forced over it.
   */
  async pushTask(branch: string, tip?: string): Promise<PushOutcome> {
    const known = this.known.get(branch);
    // `tip`: the branch's commit when the caller knows it (it just made it), else read here.
    const local = tip ?? (await commitOf(this.top, `refs/heads/${branch}`));
    // Pushed already (its last step): nothing to send.
    if (known && known === local) return 'pushed';
    return this.push(branch, known ?? '', { local });
  }

  /** A mark to give fetchedSince: how many fetches have started so far. */
  fetchMark(): number {
    return this.fetchesStarted;
  }

  /**
   * Whether a fetch that started after `mark` (fetchMark's answer) has ended well: what it saw is
   * at least as new. A fetch that failed counts for nothing.
   */
  fetchedSince(mark: number): boolean {
    return this.lastFetched > mark;
  }

  /** The remote's tip of a branch as this machine last fetched or pushed it (`''`: none there); undefined when it has not. */
  knownTip(branch: string): string | undefined {
    return this.known.get(branch);
  }
}
