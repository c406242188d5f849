/**
 * Who keeps track of the tasks of an approved plan. `orchestrator` (the default): taskweave runs
 * the plan task by task, shows the task list in every task's prompt and refuses a final answer
 * while tasks remain. `model`: the plan stays a message in the model's one conversation, the model
 * works through it on its own, and its first reply without tool calls ends the run — the baseline
 * taskweave is measured against (`taskweave eval --ablation no-tracking`).
 */
export type TaskTracking = 'orchestrator' | 'model';

/** The default: the orchestrator tracks the tasks. */
export const DEFAULT_TASK_TRACKING: TaskTracking = 'orchestrator';
