import type { CloneRemote } from './repo-clone.js';
import type { WorktreeSetup } from './worktree-setup.js';
import type { WorktreesAhead } from './worktrees-ahead.js';

/** Where a plan's tasks work: `--isolation`, config `isolation`. */
export const ISOLATION_MODES = ['auto', 'worktree', 'shared'] as const;
/** `auto` (default): worktrees for a plan with tasks that can run at once, in a git repository with a commit. */
export type IsolationMode = (typeof ISOLATION_MODES)[number];
/** The default isolation. */
export const DEFAULT_ISOLATION: IsolationMode = 'auto';

/** How a run isolates its plan tasks. */
export interface IsolationSettings {
  mode: IsolationMode;
  /**
   * The goal branch starts with the files as they are on disk, uncommitted and untracked (not
   * ignored) changes included: the default; false with `--from-head` (HEAD only).
   */
  includeUncommitted?: boolean;
  /**
   * A completed goal's change lands in the user's working tree (the default); false with
   * `--no-apply` or the config's `apply: false`, which keep it on the goal branch.
   */
  apply?: boolean;
  /** What turned applying off, as the end of the run says it (`--no-apply`, `config apply: false`). */
  applyOffBy?: string;
  worktree: WorktreeSetup;
  /** The worktrees the runtime is making ahead of goals: its own, shared by its runs. */
  ahead: WorktreesAhead;
  /**
   * The git remote (its name in taskweave's clone) goal and task branches are fetched from and
   * pushed to, when workers on several machines share the repository's queue (`--repo`).
   */
  remote?: CloneRemote;
  /**
   * The claim of the worker running the goal (its lease and the fencing token it claimed with):
   * asked before each push, so a worker that stalled past its lease pushes nothing more once
   * another took the goal over.
   */
  claim?: HeldClaim;
}

/** A worker's claim on the goal it runs, as far as the goal's git work asks about it. */
export interface HeldClaim {
  /** Whether the worker still holds the goal (its lease, under the same fencing token). */
  stillHolds(): Promise<boolean>;
}

/**
 * Whether a plan runs in worktrees, before the repository is looked at, and why: `shared` never,
 * `worktree` always, `auto` when tasks can run at once (more than one at a time allowed).
 */
export function wantsWorktrees(
  mode: IsolationMode,
  plan: { parallel: boolean; concurrency: number },
): { worktrees: boolean; reason: string } {
  if (mode === 'shared') return { worktrees: false, reason: 'isolation shared' };
  if (mode === 'worktree') return { worktrees: true, reason: 'isolation worktree' };
  if (plan.parallel && plan.concurrency > 1)
    return { worktrees: true, reason: 'isolation auto: tasks of the plan can run at the same time' };
  return { worktrees: false, reason: 'isolation auto: no two tasks of the plan can run at the same time' };
}
