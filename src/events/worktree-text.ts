import type { AgentUpdateOf } from './registry.js';

/** The worktree updates of a plan run in git worktrees. */
export type WorktreeUpdate = AgentUpdateOf<
  'goal_branch' | 'worktree_created' | 'task_merged' | 'merge_conflict' | 'goal_applied'
>;

/** One line saying a worktree update, for the terminal and the web UI alike. */
export function worktreeText(event: WorktreeUpdate): string {
  switch (event.update_type) {
    case 'goal_branch':
      return `Tasks run in git worktrees on ${event.branch} (from ${event.base.slice(0, 7)}): ${event.reason}`;
    case 'worktree_created':
      return `[${event.task_id}] ${event.created ? 'worktree' : 'worktree continued'} on ${event.branch} at ${event.commit.slice(0, 7)}`;
    case 'task_merged':
      if (event.unchanged)
        return `[${event.task_id}] changed nothing the goal branch does not have already: nothing to merge`;
      return event.already
        ? `[${event.task_id}] ${event.branch} was merged already (${event.commit.slice(0, 7)}): not merged again`
        : `[${event.task_id}] merged ${event.branch} into the goal branch (${event.commit.slice(0, 7)})`;
    case 'merge_conflict':
      return `[${event.task_id}] merge conflict: ${event.branch} and the goal branch both changed ${event.files.map((file) => file.path).join(', ')}`;
    case 'goal_applied':
      return goalAppliedText(event);
  }
}

/**
 * Where a goal's work went, at the end of its run: `applied: 4 files (+9 −2)`, or
 * `on taskweave/<goal>, not applied: …, taskweave apply <goal>`.
 */
export function goalAppliedText(event: AgentUpdateOf<'goal_applied'>): string {
  const count = `${event.files.length} ${event.files.length === 1 ? 'file' : 'files'}`;
  switch (event.outcome) {
    case 'applied':
      return event.files.length === 0
        ? 'applied: the goal changed no file'
        : `applied: ${count} (+${event.added} −${event.removed})`;
    case 'held':
      return `on ${event.branch}, not applied: you changed ${event.files.join(', ')} meanwhile (nothing was touched; taskweave diff ${event.plan_id} shows the goal's change), taskweave apply ${event.plan_id}`;
    case 'kept':
      return `on ${event.branch}, not applied: ${event.reason ?? '--no-apply'} (${count}, +${event.added} −${event.removed}), taskweave apply ${event.plan_id}`;
    case 'failed':
      return `on ${event.branch}, not applied: ${event.reason ?? 'git failed'}, taskweave apply ${event.plan_id}`;
  }
}
