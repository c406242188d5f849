import type { TaskGraph } from './task-graph.js';

/**
 * Whether two tasks of the plan can run at the same time: neither depends on the other, even
 * through other tasks. A chain (each task after the one before) has none.
 */
export function hasParallelTasks(graph: TaskGraph): boolean {
  const ids = graph.tasks.map((task) => task.id);
  const after = new Map(ids.map((id) => [id, new Set(graph.transitiveDependentsOf(id))]));
  for (const [index, first] of ids.entries()) {
    for (const second of ids.slice(index + 1)) {
      if (!after.get(first)?.has(second) && !after.get(second)?.has(first)) return true;
    }
  }
  return false;
}
