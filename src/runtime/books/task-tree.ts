// The to-do list as a tree of goals and their plans' tasks, and what a list shows of it: plain
// functions over rows, loaded by `tasks list` without the store (see src/cli/quick-listing.ts).

import { DEFAULT_QUEUE } from '../../store/defaults.js';
import type { Task } from '../../store/rows.js';

/** The statuses of goals a plain list shows: work not finished. */
const UNFINISHED = new Set<Task['status']>(['pending', 'in_progress', 'blocked', 'stopped']);

/**
 * The goals of a queue still to do (pending, in progress, blocked while their session waits
 * for the user, or stopped by the user until `resume`) in the order they run, or every goal with `all`; each with the tasks of the
 * plans it made under it (taskTree).
 */
export function listedTasks(all: Task[], options: { queue?: string; all?: boolean } = {}): TaskTreeNode[] {
  const queue = options.queue ?? DEFAULT_QUEUE;
  return taskTree(all).filter(
    (node) =>
      (node.planId === null && node.queue === queue && (options.all || UNFINISHED.has(node.status))) ||
      // A plan task whose goal is gone.
      (node.planId !== null && options.all && queue === DEFAULT_QUEUE),
  );
}

/** A goal of the to-do list with the tasks of the plans it made, in their order. */
export type TaskTreeNode = Task & { tasks?: Task[] };

/**
 * The to-do list as a tree: the goals (queue tasks) in queue order, each with the tasks of the
 * plans made while it ran (a plan belongs to the latest goal of its session added before it).
 * Plan tasks whose goal is gone stay at the top level.
 */
export function taskTree(all: Task[]): TaskTreeNode[] {
  const goals = all.filter((task) => task.planId === null);
  const bySession = new Map<string, Task[]>();
  for (const goal of goals) {
    if (goal.sessionId === null) continue;
    const list = bySession.get(goal.sessionId) ?? [];
    list.push(goal);
    bySession.set(goal.sessionId, list);
  }
  const children = new Map<string, Task[]>();
  const orphans: Task[] = [];
  for (const task of all) {
    if (task.planId === null) continue;
    const candidates = task.sessionId === null ? [] : (bySession.get(task.sessionId) ?? []);
    const owner = candidates
      .filter((goal) => goal.createdAt <= task.createdAt)
      .reduce<Task | undefined>(
        (latest, goal) => (latest && latest.createdAt > goal.createdAt ? latest : goal),
        undefined,
      );
    if (owner === undefined) orphans.push(task);
    else children.set(owner.id, [...(children.get(owner.id) ?? []), task]);
  }
  return [
    ...goals.map((goal) => {
      const tasks = children.get(goal.id);
      return tasks ? { ...goal, tasks } : goal;
    }),
    ...orphans,
  ];
}
