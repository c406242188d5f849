import { hasParallelTasks } from '../../plan/parallel-tasks.js';
import type { TaskGraph } from '../../plan/task-graph.js';
import { applyGoal } from '../../work/apply-goal.js';
import { goalBranch } from '../../work/goal-branch.js';
import { GoalWorktrees } from '../../work/goal-worktrees.js';
import { wantsWorktrees } from '../../work/isolation.js';
import type { RunContext } from '../state/run-state.js';

function note(run: RunContext, content: string): void {
  run.emit({ type: 'agent_update', update_type: 'agent_note', step: run.steps, content });
}

/**
 * The worktrees of a plan's goal, when the run's isolation gives the plan worktrees and the
 * workspace is in a git repository with a commit; undefined when its tasks share the workspace.
 * `continues`: the plan this one revises (its goal branch is continued, not HEAD).
 */
export async function openGoalWorktrees(
  run: RunContext,
  options: { planId: string; graph: TaskGraph; continues?: string },
): Promise<GoalWorktrees | undefined> {
  const settings = run.isolation;
  if (!settings) return undefined;
  const wanted = wantsWorktrees(settings.mode, {
    parallel: hasParallelTasks(options.graph),
    concurrency: run.planOptions.concurrency,
  });
  if (!wanted.worktrees) return undefined;
  let goal: GoalWorktrees | undefined;
  const open = () =>
    GoalWorktrees.open({
      workspaceRoot: run.workspace.root,
      goalId: options.planId,
      includeUncommitted: settings.includeUncommitted,
      from: options.continues ? `refs/heads/${goalBranch(options.continues)}` : undefined,
      setup: settings.worktree,
      ahead: settings.ahead,
      remote: settings.remote,
      claim: settings.claim,
    });
  try {
    goal = settings.remote === undefined ? await open() : await openThroughRemote(run, open);
  } catch (error) {
    // A goal of a shared repository's queue has no other place to work: its work in the
    // clone's checkout would never reach the remote. It fails, saying why, instead.
    if (settings.remote !== undefined) throw error;
    note(
      run,
      `The tasks share the workspace: git worktrees could not be used (${error instanceof Error ? error.message : String(error)}).`,
    );
    return undefined;
  }
  if (!goal) {
    if (settings.mode === 'worktree')
      note(
        run,
        'The tasks share the workspace: it is not in a git repository with a commit (--isolation worktree needs one).',
      );
    return undefined;
  }
  run.emit({
    type: 'agent_update',
    update_type: 'goal_branch',
    plan_id: options.planId,
    branch: goal.branch,
    base: goal.base,
    reason: options.continues
      ? `${wanted.reason}; it continues ${goalBranch(options.continues)}`
      : wanted.reason,
  });
  return goal;
}

/** How many times a goal's branches are fetched from and pushed to the remote before the goal fails. */
const REMOTE_OPEN_ATTEMPTS = 3;

/**
 * Opens a goal whose branches go through a remote (`--repo`): a git failure (the network, a
 * lock another process held) is said as a note and tried again, twice, after 1 and 2 s; then
 * it fails the goal (its work has nowhere else to go).
 */
async function openThroughRemote(
  run: RunContext,
  open: () => Promise<GoalWorktrees | undefined>,
): Promise<GoalWorktrees | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await open();
    } catch (error) {
      if (attempt >= REMOTE_OPEN_ATTEMPTS) throw error;
      note(
        run,
        `The goal's branches could not be fetched or pushed (${error instanceof Error ? error.message : String(error)}); trying again.`,
      );
      await new Promise((resolve) => setTimeout(resolve, attempt * 1000));
    }
  }
}

/**
 * While a plan waits for approval: as many worktrees as it runs tasks at once are checked out
 * ahead (when the plan would run in worktrees), so that its tasks do not wait for them once it
 * is approved. A
 * handle to discard it if the plan is not run; undefined when there is nothing to do. Never throws.
 */
export function prewarmGoal(
  run: RunContext,
  options: { planId: string; graph: TaskGraph },
): { discard: () => Promise<void> } | undefined {
  const settings = run.isolation;
  if (!settings || run.taskTracking === 'model') return undefined;
  const wanted = wantsWorktrees(settings.mode, {
    parallel: hasParallelTasks(options.graph),
    concurrency: run.planOptions.concurrency,
  });
  if (!wanted.worktrees) return undefined;
  // As many as the plan runs at once: its widest layer (tasks as far from the start), up to the concurrency.
  const warm = GoalWorktrees.prewarm({
    workspaceRoot: run.workspace.root,
    goalId: options.planId,
    count: Math.min(widestLayer(options.graph), run.planOptions.concurrency),
    ahead: settings.ahead,
  });
  // A failure here is not the plan's: the goal makes its worktrees itself.
  warm.ready.catch(() => {});
  return warm;
}

/** The most tasks at one depth of the graph (the longest chain of dependencies before each). */
function widestLayer(graph: TaskGraph): number {
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const found = Math.max(-1, ...graph.dependenciesOf(id).map(depthOf)) + 1;
    depth.set(id, found);
    return found;
  };
  const layers = new Map<number, number>();
  for (const task of graph.tasks) {
    const at = depthOf(task.id);
    layers.set(at, (layers.get(at) ?? 0) + 1);
  }
  return Math.max(1, ...layers.values());
}

/** `--apply`: the finished goal's branch merged into the user's current branch, said as a note. */
export async function applyAtEnd(run: RunContext, goalId: string): Promise<void> {
  try {
    const outcome = await applyGoal(run.workspace.root, goalId);
    const branch = goalBranch(goalId);
    switch (outcome.kind) {
      case 'applied':
        note(run, `Applied ${branch} to ${outcome.branch} (${outcome.commit.slice(0, 7)}).`);
        return;
      case 'already-applied':
        note(run, `${branch} is in ${outcome.branch} already.`);
        return;
      case 'conflict':
        note(
          run,
          `Not applied: ${branch} and your branch both changed ${outcome.files.join(', ')}. Nothing was changed; merge it yourself (git merge ${branch}).`,
        );
        return;
      case 'refused':
        note(
          run,
          `Not applied: git refused (${outcome.message}). Nothing was changed; taskweave apply ${goalId} tries again.`,
        );
        return;
    }
  } catch (error) {
    note(run, `Not applied: ${error instanceof Error ? error.message : String(error)}`);
  }
}
