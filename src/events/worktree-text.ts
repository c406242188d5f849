import type { AgentUpdateOf } from './registry.js';

/** The worktree updates of a plan run in git worktrees. */
export type WorktreeUpdate = AgentUpdateOf<
  'goal_branch' | 'worktree_created' | 'task_merged' | 'merge_conflict'
>;

/** One line saying a worktree update, for the terminal and the web UI alike. */
export function worktreeText(event: WorktreeUpdate): string {
  switch (event.update_type) {
    case 'goal_branch':
      return `Tasks run in git worktrees on ${event.branch} (from ${event.base.slice(0, 7)}): ${event.reason}`;
    case 'worktree_created':
      return `[${event.task_id}] ${event.created ? 'worktree' : 'worktree continued'} on ${event.branch} at ${event.commit.slice(0, 7)}`;
    case 'task_merged':
      return event.already
        ? `[${event.task_id}] ${event.branch} was merged already (${event.commit.slice(0, 7)}): not merged again`
        : `[${event.task_id}] merged ${event.branch} into the goal branch (${event.commit.slice(0, 7)})`;
    case 'merge_conflict':
      return `[${event.task_id}] merge conflict: ${event.branch} and the goal branch both changed ${event.files.map((file) => file.path).join(', ')}`;
  }
}
