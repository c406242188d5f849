import type { TaskOutcome } from '../../plan/scheduler.js';
import type { PlanTask } from '../../plan/task-graph.js';
import { fillSection } from '../../prompts/template.js';
import type { FileTracker } from '../../tools/file-tracker.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { Workspace } from '../../tools/workspace/index.js';
import type { GoalWorktrees } from '../../work/goal-worktrees.js';
import { executeTools } from '../loop/execute-tools.js';
import type { Step } from '../loop/step.js';
import { addNote } from '../state/notes.js';
import type { Conversation } from '../state/run-state.js';
import type { PlanRun } from './plan-run.js';

/** The template of what the model reads while it resolves a merge conflict (src/prompts/merge-conflict.md). */
export const MERGE_CONFLICT = 'merge-conflict';

/** Where a task in a worktree works, or why it could not start there. */
export type TaskWorktree = { workspace: Workspace } | { failed: string };

/**
 * Puts a task in its worktree: one of the goal's pool on a branch started at the goal branch as
 * it is now (`fresh`: the task starts, or is retried after a failure or a conflict), else the
 * one it had (continued after a crash). A worktree `worktree.setup` has not run in yet runs it
 * first, through run_command (sandboxed, approved like any command of the task).
 */
export async function enterWorktree(
  plan: PlanRun,
  goal: GoalWorktrees,
  task: PlanTask,
  options: { fresh: boolean; registry: ToolRegistry; signal: AbortSignal; files: FileTracker },
): Promise<TaskWorktree> {
  const { run } = plan;
  const place = await goal.placeFor(task.id, { fresh: options.fresh });
  const workspace = await Workspace.open(place.root);
  // A worktree continued after a crash may hold what a killed step changed: committed first.
  const commit = place.created
    ? ''
    : ((await goal.commitStep(task.id, `taskweave: ${task.id} continued`)) ?? '');
  run.emit({
    type: 'agent_update',
    update_type: 'worktree_created',
    task_id: task.id,
    branch: place.branch,
    path: place.folder,
    commit: commit || place.commit || (await goal.tipOf(task.id)),
    created: place.created,
  });
  // A worktree.copy or share name refused (a link on its path) is said, not silently missing.
  for (const content of place.setup?.refused ?? [])
    run.emit({ type: 'agent_update', update_type: 'agent_note', step: run.steps, content, task_id: task.id });
  const setup = goal.setupCommand;
  if (!place.needsSetup || !setup) return { workspace };
  const [ran] = await executeTools({
    calls: [{ id: `setup-${task.id}-${Date.now()}`, name: 'run_command', args: { command: setup } }],
    registry: options.registry,
    contextFor: (call) =>
      plan.toolContext(call, {
        step: run.steps,
        taskId: task.id,
        signal: options.signal,
        files: options.files,
        workspace,
      }),
    emit: run.emit,
    step: run.steps,
    taskId: task.id,
    signal: options.signal,
    approval: run.approval,
  });
  if (ran && !ran.result.isError) {
    goal.setUpDone(task.id);
    return { workspace };
  }
  return {
    failed: `worktree.setup \`${setup}\` failed in the task's worktree: ${ran?.result.output ?? 'not run'}`,
  };
}

/** Commits what a step changed in the task's worktree: the task's checkpoint, on its branch. */
export async function commitTaskStep(
  goal: GoalWorktrees,
  task: PlanTask,
  step: Step,
  registry: ToolRegistry,
) {
  const changing = step.executed.filter(
    ({ call }) => (registry.get(call.name)?.changes ?? 'none') !== 'none',
  );
  if (changing.length === 0) return;
  const calls = changing.map(({ call }) => call.name).join(', ');
  await goal.commitStep(task.id, `taskweave: ${task.id} step ${step.index} (${calls})`);
}

/**
 * The end of a task that completed (its check passed in its worktree): merged into the goal
 * branch, then its worktree given back to the pool. A conflict fails the task with the files and both sides,
 * for the failure decision; its worktree and branch stay.
 */
export async function mergeCompletedTask(
  plan: PlanRun,
  goal: GoalWorktrees,
  task: PlanTask,
  summary: string,
): Promise<TaskOutcome> {
  const { run } = plan;
  const merge = await goal.mergeTask(task.id, task.title);
  const branch = goal.taskBranchOf(task.id);
  if (merge.kind === 'conflict') {
    run.emit({
      type: 'agent_update',
      update_type: 'merge_conflict',
      task_id: task.id,
      branch,
      files: merge.files,
    });
    return {
      status: 'failed',
      reason: `Its work could not be merged into ${goal.branch}. ${merge.description}\nRetry runs the task again from the goal branch as it is now; resolve lets the model resolve the conflict in the task's worktree (its check runs again before the merge).`,
      conflict: true,
    };
  }
  run.emit({
    type: 'agent_update',
    update_type: 'task_merged',
    task_id: task.id,
    branch,
    commit: merge.commit,
    already: merge.kind !== 'merged',
    ...(merge.kind === 'unchanged' ? { unchanged: true } : {}),
  });
  goal.releaseTask(task.id);
  return { status: 'completed', summary };
}

/**
 * The conflict choice `resolve`: the goal branch is merged into the task's branch in its
 * worktree and the model is told which files conflict and what each side did; the task then goes
 * on in the same worktree until it closes again (no conflict marker left, its check passing).
 */
export async function beginResolve(
  plan: PlanRun,
  goal: GoalWorktrees,
  task: PlanTask,
  conversation: Conversation,
): Promise<void> {
  const { files, description } = await goal.startResolve(task.id);
  const branch = goal.taskBranchOf(task.id);
  const branches = { branch, goal_branch: goal.branch };
  const content =
    files.length === 0
      ? fillSection(MERGE_CONFLICT, 'resolve-no-conflict', branches)
      : fillSection(MERGE_CONFLICT, files.length === 1 ? 'resolve-one-file' : 'resolve-files', {
          ...branches,
          files: files.join(', '),
          description,
        });
  addNote(plan.run, conversation, {
    step: plan.run.steps,
    taskId: task.id,
    content,
    shown:
      files.length === 0
        ? `Resolving: ${goal.branch} merged into ${branch} without a conflict now.`
        : `Resolving the conflict in the task's worktree: ${files.join(', ')} ${files.length === 1 ? 'holds' : 'hold'} conflict markers for the model to resolve.`,
  });
}
