import { taskRefName } from './task-ref-name.js';

/** The most tasks one plan may hold; a longer plan is refused with a request to merge steps. */
export const MAX_PLAN_TASKS = 50;

/** One task of a plan: one objective, which may take many tool calls. */
export interface PlanTask {
  id: string;
  title: string;
  description: string;
  /** Ids of the tasks that must be completed (or skipped) before this one starts. */
  depends_on: string[];
  /** A shell command that proves the task is done (e.g. `npm run build`); the task closes only when it exits 0. */
  check?: string;
}

/**
 * Every state a task can be in — a plan's task while it runs and a task of the persistent queue
 * alike (the store's CHECK constraint is built from this list): one vocabulary.
 */
export const TASK_STATES = [
  'pending',
  'in_progress',
  'completed',
  'failed',
  'blocked',
  'skipped',
  'cancelled',
  /** A goal the user stopped (Ctrl-C, the stop button): `resume` continues it. */
  'stopped',
] as const;

/** Where a task stands. */
export type TaskState = (typeof TASK_STATES)[number];

/**
 * A validated plan: a directed acyclic graph of tasks. Immutable; every id-taking method
 * throws for an id that is not in the plan, since that is a bug in the caller.
 */
export interface TaskGraph {
  /** All tasks, in plan order. */
  readonly tasks: readonly Readonly<PlanTask>[];
  get(id: string): Readonly<PlanTask> | undefined;
  /** Direct dependencies, in the order the task lists them (duplicates removed). */
  dependenciesOf(id: string): readonly string[];
  /** Tasks that depend directly on this one, in plan order. */
  dependentsOf(id: string): readonly string[];
  /** Every task that depends on this one, directly or through others, in plan order. */
  transitiveDependentsOf(id: string): readonly string[];
  /**
   * Pending tasks whose dependencies are all completed or skipped, in plan order. A task the
   * state map does not mention counts as pending.
   */
  readySet(state: ReadonlyMap<string, TaskState>): string[];
  /**
   * Topological layers: layer 0 holds the tasks without dependencies, and each task sits in the
   * layer after its deepest dependency, so one layer is what can run in parallel. Plan order
   * within a layer.
   */
  layers(): string[][];
  /** Length of the longest dependency chain: its number of tasks, or the sum of their weights. */
  criticalPathLength(weight?: (id: string) => number): number;
  /** The ids along the longest dependency chain, first to run first; on ties, tasks earlier in the plan win. */
  criticalPath(weight?: (id: string) => number): string[];
}

/** The outcome of `validatePlan`: a graph, or every problem found, worded for the model to fix. */
export type PlanValidation = { ok: true; graph: TaskGraph } | { ok: false; errors: string[] };

/**
 * Checks a plan and builds its graph. All problems are collected (not just the first) so that
 * the model can fix them in one go: an empty or oversized plan, duplicate ids (or ids that would
 * name one branch), self-dependencies, unknown dependencies and cycles.
 */
export function validatePlan(tasks: readonly PlanTask[]): PlanValidation {
  if (tasks.length === 0) {
    return { ok: false, errors: ['The plan has no tasks. A plan needs at least one task.'] };
  }
  const errors: string[] = [];
  if (tasks.length > MAX_PLAN_TASKS) {
    errors.push(
      `The plan has ${tasks.length} tasks; at most ${MAX_PLAN_TASKS} are allowed. Merge small steps into larger tasks.`,
    );
  }

  const positions = new Map<string, number[]>();
  tasks.forEach((task, index) => {
    positions.set(task.id, [...(positions.get(task.id) ?? []), index + 1]);
  });
  for (const [id, at] of positions) {
    if (at.length > 1) {
      errors.push(
        `The id "${id}" is used by ${at.length} tasks (positions ${at.join(', ')}); every task needs its own id.`,
      );
    }
  }

  // Each task works on a branch named after its id: two ids must never name one branch.
  const byRefName = new Map<string, string>();
  for (const id of positions.keys()) {
    const other = byRefName.get(taskRefName(id));
    if (other !== undefined)
      errors.push(`The ids "${other}" and "${id}" would share a branch; give one of them another id.`);
    else byRefName.set(taskRefName(id), id);
  }

  const validIds = [...positions.keys()].join(', ');
  for (const task of tasks) {
    if (task.depends_on.includes(task.id)) {
      errors.push(`Task "${task.id}" depends on itself; remove "${task.id}" from its depends_on.`);
    }
    for (const dependency of new Set(task.depends_on)) {
      if (!positions.has(dependency)) {
        errors.push(
          `Task "${task.id}" depends on "${dependency}", which is not a task in this plan. Valid ids: ${validIds}.`,
        );
      }
    }
  }

  for (const cycle of findCycles(tasks, positions)) {
    errors.push(
      `Dependency cycle: ${cycle.join(' → ')} (each task depends on the next). Remove one of these dependencies.`,
    );
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, graph: new DagTaskGraph(tasks) };
}

/**
 * Depth-first search along depends_on edges; each back edge closes a cycle. A cycle is rotated
 * to start at its earliest task in plan order so that the same cycle reached from two places is
 * reported once. Self-dependencies and unknown ids are reported elsewhere and skipped here.
 */
function findCycles(tasks: readonly PlanTask[], positions: Map<string, number[]>): string[][] {
  const firstById = new Map<string, PlanTask>();
  for (const task of tasks) if (!firstById.has(task.id)) firstById.set(task.id, task);
  const planIndex = (id: string) => positions.get(id)?.[0] ?? 0;

  const finished = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const seen = new Set<string>();
  const cycles: string[][] = [];

  const visit = (id: string): void => {
    stack.push(id);
    onStack.add(id);
    for (const dependency of firstById.get(id)?.depends_on ?? []) {
      if (dependency === id || !firstById.has(dependency) || finished.has(dependency)) continue;
      if (onStack.has(dependency)) {
        const members = stack.slice(stack.indexOf(dependency));
        const start = members.reduce(
          (best, member, index) => (planIndex(member) < planIndex(members[best]!) ? index : best),
          0,
        );
        const rotated = [...members.slice(start), ...members.slice(0, start)];
        const key = rotated.join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...rotated, rotated[0]!]);
        }
        continue;
      }
      visit(dependency);
    }
    stack.pop();
    onStack.delete(id);
    finished.add(id);
  };

  for (const id of firstById.keys()) if (!finished.has(id)) visit(id);
  return cycles;
}

class DagTaskGraph implements TaskGraph {
  readonly tasks: readonly Readonly<PlanTask>[];
  private readonly byId = new Map<string, Readonly<PlanTask>>();
  private readonly planIndex = new Map<string, number>();
  private readonly dependencies = new Map<string, readonly string[]>();
  private readonly dependents = new Map<string, readonly string[]>();
  /** Dependencies before dependents. */
  private readonly topologicalOrder: readonly string[];

  constructor(tasks: readonly PlanTask[]) {
    this.tasks = Object.freeze(
      tasks.map((task) =>
        Object.freeze({ ...task, depends_on: Object.freeze([...task.depends_on]) as string[] }),
      ),
    );
    for (const [index, task] of this.tasks.entries()) {
      this.byId.set(task.id, task);
      this.planIndex.set(task.id, index);
      this.dependencies.set(task.id, Object.freeze([...new Set(task.depends_on)]));
    }
    for (const task of this.tasks) {
      this.dependents.set(
        task.id,
        Object.freeze(
          this.tasks.filter((other) => this.dependencies.get(other.id)!.includes(task.id)).map((t) => t.id),
        ),
      );
    }
    const order: string[] = [];
    const placed = new Set<string>();
    const place = (id: string): void => {
      if (placed.has(id)) return;
      placed.add(id);
      for (const dependency of this.dependenciesOf(id)) place(dependency);
      order.push(id);
    };
    for (const task of this.tasks) place(task.id);
    this.topologicalOrder = Object.freeze(order);
  }

  get(id: string): Readonly<PlanTask> | undefined {
    return this.byId.get(id);
  }

  dependenciesOf(id: string): readonly string[] {
    return this.lookup(this.dependencies, id);
  }

  dependentsOf(id: string): readonly string[] {
    return this.lookup(this.dependents, id);
  }

  transitiveDependentsOf(id: string): readonly string[] {
    const reached = new Set<string>();
    const pending = [...this.dependentsOf(id)];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (reached.has(next)) continue;
      reached.add(next);
      pending.push(...this.dependentsOf(next));
    }
    return this.tasks.map((task) => task.id).filter((taskId) => reached.has(taskId));
  }

  readySet(state: ReadonlyMap<string, TaskState>): string[] {
    const satisfied = (id: string) => {
      const current = state.get(id);
      return current === 'completed' || current === 'skipped';
    };
    return this.tasks
      .filter((task) => (state.get(task.id) ?? 'pending') === 'pending')
      .filter((task) => this.dependenciesOf(task.id).every(satisfied))
      .map((task) => task.id);
  }

  layers(): string[][] {
    const depth = new Map<string, number>();
    for (const id of this.topologicalOrder) {
      depth.set(id, Math.max(-1, ...this.dependenciesOf(id).map((dependency) => depth.get(dependency)!)) + 1);
    }
    const layers: string[][] = [];
    for (const task of this.tasks) {
      const layer = depth.get(task.id)!;
      while (layers.length <= layer) layers.push([]);
      layers[layer]!.push(task.id);
    }
    return layers;
  }

  criticalPathLength(weight: (id: string) => number = () => 1): number {
    return this.longestChains(weight).length;
  }

  criticalPath(weight: (id: string) => number = () => 1): string[] {
    return this.longestChains(weight).path;
  }

  /** Longest weighted chain ending at each task, by dynamic programming in topological order. */
  private longestChains(weight: (id: string) => number): { length: number; path: string[] } {
    const chainLength = new Map<string, number>();
    const previous = new Map<string, string | undefined>();
    for (const id of this.topologicalOrder) {
      let best: string | undefined;
      for (const dependency of this.dependenciesOf(id)) {
        const longer = best === undefined || chainLength.get(dependency)! > chainLength.get(best)!;
        const earlierTie =
          best !== undefined &&
          chainLength.get(dependency) === chainLength.get(best) &&
          this.planIndex.get(dependency)! < this.planIndex.get(best)!;
        if (longer || earlierTie) best = dependency;
      }
      chainLength.set(id, weight(id) + (best === undefined ? 0 : chainLength.get(best)!));
      previous.set(id, best);
    }
    let end: string | undefined;
    for (const task of this.tasks) {
      if (end === undefined || chainLength.get(task.id)! > chainLength.get(end)!) end = task.id;
    }
    const path: string[] = [];
    for (let id = end; id !== undefined; id = previous.get(id)) path.unshift(id);
    return { length: end === undefined ? 0 : chainLength.get(end)!, path };
  }

  private lookup(map: Map<string, readonly string[]>, id: string): readonly string[] {
    const found = map.get(id);
    if (found === undefined) throw new Error(`The plan has no task "${id}".`);
    return found;
  }
}
