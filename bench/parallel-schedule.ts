/**
 * The arithmetic of bench/parallel: the ideal wall time of a plan (pure, from the graph, the
 * concurrency limit and the model latency) and the moment each task could have started (from
 * the measured model calls alone).
 */
import type { TaskGraph } from '../src/plan/task-graph.js';

/**
 * How many model latencies a plan of one-call tasks needs at best under a concurrency limit:
 * tasks start as soon as their dependencies are done and a slot is free, longest remaining chain
 * first. It is the critical path when the widest layer fits in the limit (all shapes here but
 * fan-out 10 under the default limit of 4, which needs 1 + ⌈10 / 4⌉ waves).
 */
export function idealWaves(graph: TaskGraph, concurrency: number): number {
  const remainingChain = new Map<string, number>();
  for (const id of graph.layers().flat().reverse()) {
    const dependents = graph.dependentsOf(id);
    remainingChain.set(id, 1 + Math.max(0, ...dependents.map((dependent) => remainingChain.get(dependent)!)));
  }
  const done = new Set<string>();
  let waves = 0;
  while (done.size < graph.tasks.length) {
    const ready = graph.tasks
      .filter((task) => !done.has(task.id) && graph.dependenciesOf(task.id).every((id) => done.has(id)))
      .sort((a, b) => remainingChain.get(b.id)! - remainingChain.get(a.id)!);
    for (const task of ready.slice(0, concurrency)) done.add(task.id);
    waves += 1;
  }
  return waves;
}

/** One task as the bench saw it (ms, performance clock). */
export interface TaskCall {
  /** When the agent called the model for the task. */
  start: number;
  /** When the task was done: its reply came back, or the orchestrator recorded it completed. */
  end: number;
}

/**
 * When each task could have started: its last dependency ended (the plan's approval for a task
 * without dependencies) and a run slot was free. A slot is held from a task's start to its end,
 * and the tasks that started earlier are ahead in line for it (a task waiting behind them was
 * not ready yet). The time from then to the task's own model call is its dispatch latency.
 */
export function readyTimes(options: {
  graph: TaskGraph;
  calls: ReadonlyMap<string, TaskCall>;
  approvedAt: number;
  concurrency: number;
}): Map<string, number> {
  const { graph, calls, approvedAt, concurrency } = options;
  const call = (id: string) => {
    const found = calls.get(id);
    if (found === undefined) throw new Error(`no model call was seen for task ${id}`);
    return found;
  };
  const byStart = graph.tasks.map((task) => task.id).sort((a, b) => call(a).start - call(b).start);
  const ready = new Map<string, number>();
  byStart.forEach((id, position) => {
    const dependenciesDone = Math.max(
      approvedAt,
      ...graph.dependenciesOf(id).map((dependency) => call(dependency).end),
    );
    const ahead = byStart.slice(0, position).map(call);
    const busyAt = (time: number) => ahead.filter((other) => other.end > time).length;
    const candidates = [dependenciesDone, ...ahead.map((other) => other.end)]
      .filter((time) => time >= dependenciesDone)
      .sort((a, b) => a - b);
    ready.set(id, candidates.find((time) => busyAt(time) < concurrency) ?? dependenciesDone);
  });
  return ready;
}
