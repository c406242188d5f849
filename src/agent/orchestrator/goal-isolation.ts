import { hasParallelTasks } from '../../plan/parallel-tasks.js';
import type { TaskGraph } from '../../plan/task-graph.js';
import { goalBranch } from '../../work/goal-branch.js';
import { GoalWorktrees } from '../../work/goal-worktrees.js';
import { wantsWorktrees } from '../../work/isolation.js';
import { goalChange, landGoal } from '../../work/land-goal.js';
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
  options: { goal: string; planId: string; graph: TaskGraph; continues?: string },
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
      goal: options.goal,
      includeUncommitted: settings.includeUncommitted !== false,
      from: options.continues ? `refs/heads/${goalBranch(options.continues)}` : undefined,
      setup: settings.worktree,
      ahead: settings.ahead,
      remote: settings.remote,
      claim: settings.claim,
      idleBound: run.planOptions.concurrency,
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

/**
 * The end of a completed goal run in worktrees: its change lands in the user's working tree
 * (landGoal: three-way against its base, all or nothing), unless `--no-apply` (or the config's
 * `apply: false`) keeps it on its branch. Said as a `goal_applied` update either way. A goal of a
 * shared repository's queue (`--repo`) has no user's tree here: its branch is on the remote.
 */
export async function landAtEnd(run: RunContext, goalId: string): Promise<void> {
  const settings = run.isolation;
  if (!settings || settings.remote !== undefined) return;
  const branch = goalBranch(goalId);
  const emit = (update: {
    outcome: 'applied' | 'held' | 'kept' | 'failed';
    files: string[];
    added?: number;
    removed?: number;
    reason?: string;
  }) =>
    run.emit({
      type: 'agent_update',
      update_type: 'goal_applied',
      plan_id: goalId,
      branch,
      added: 0,
      removed: 0,
      ...update,
    });
  try {
    if (settings.apply === false) {
      const change = await goalChange(run.workspace.root, goalId);
      emit({ outcome: 'kept', ...change, reason: settings.applyOffBy ?? '--no-apply' });
      return;
    }
    const outcome = await landGoal(run.workspace.root, goalId);
    if (outcome.kind === 'applied') emit({ outcome: 'applied', ...outcome });
    else emit({ outcome: 'held', files: outcome.held });
  } catch (error) {
    emit({ outcome: 'failed', files: [], reason: error instanceof Error ? error.message : String(error) });
  }
}
