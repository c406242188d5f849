/*
 * A goal's git work as front ends see it: its diff, applying it to the user's branch, and the
 * worktrees left behind. The runtime's door to work/ for these; no database needed.
 */
export {
  type ApplyOutcome,
  applyGoal,
  fetchGoalBranches,
  GoalBranchError,
  goalDiff,
  type LeftoverWorktree,
  leftoverWorktrees,
  listGoalBranches,
  pruneWorktrees,
} from '../work/apply-goal.js';
