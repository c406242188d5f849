import type { PlanTask, TaskGraph, TaskState } from './task-graph.js';

/** How many tasks of a plan run at once unless the caller says otherwise. */
export const DEFAULT_PLAN_CONCURRENCY = 4;

/** What running one task produced. */
export type TaskOutcome =
  | { status: 'completed'; summary: string }
  /** `conflict`: its work could not be merged into the goal branch (it can be resolved in its worktree). */
  | {
      status: 'failed';
      reason: string;
      conflict?: boolean;
      /** The model's provider refused to work on it (its replies stopped by the content filter). */
      refused?: boolean;
    };

/** How a task is run: `resolve` after the user chose to resolve its merge conflict in its worktree. */
export interface TaskRunMode {
  resolve: boolean;
}

/** What to do about a failed task (usually the user's answer). */
export type FailureDecision =
  | { action: 'retry' }
  | { action: 'skip' }
  | { action: 'abort' }
  /** Only for a merge conflict: the task goes on in its worktree with the goal branch merged in. */
  | { action: 'resolve' }
  /** The model plans the rest again; `feedback` is what the user wants changed. */
  | { action: 'revise'; feedback?: string };

/** Given to `onFailure`: the failed task, why it failed, and the tasks waiting on it. */
export interface FailureInfo {
  task: PlanTask;
  reason: string;
  /** Transitive dependents of the task that are blocked now, in plan order. */
  blocked: PlanTask[];
  /** Its work conflicted with the goal branch: `resolve` may be chosen. */
  conflict: boolean;
}

/**
 * How a run ended. `completed`: nothing is left that can run. `aborted`: a failure was answered
 * with abort. `revise`: a failure was answered with revise and the caller re-plans from `states`.
 * `stopped`: the run's signal aborted.
 */
export interface SchedulerResult {
  status: 'completed' | 'aborted' | 'revise' | 'stopped';
  states: Map<string, TaskState>;
  /** The last outcome of every task that ran in this run. */
  outcomes: Map<string, TaskOutcome>;
  /** With `revise`: what the user wants changed, when they said. */
  feedback?: string;
}

export interface PlanSchedulerOptions {
  graph: TaskGraph;
  /** The most tasks running at once; DEFAULT_PLAN_CONCURRENCY when left out. */
  concurrency?: number;
  /**
   * States from an earlier run of the same plan. Completed and skipped tasks are not run again;
   * an `in_progress` task was interrupted and runs again; failed tasks are put to `onFailure`.
   * Tasks cancelled earlier are not run, and their dependents stay blocked.
   */
  initialState?: ReadonlyMap<string, TaskState>;
  /**
   * Does one task. Must end soon after `signal` aborts (user stop or abort). A thrown error or a
   * rejection counts as a failure with the error's message.
   */
  runTask: (task: PlanTask, signal: AbortSignal, mode: TaskRunMode) => Promise<TaskOutcome>;
  /** Asked once nothing else can run, for each failed task in turn. */
  onFailure: (info: FailureInfo) => Promise<FailureDecision>;
  /** Told of every state change; `detail` is the summary, the failure reason or why a task is blocked. */
  onStateChange?: (id: string, state: TaskState, detail?: string) => void;
}

type RunStatus = SchedulerResult['status'];

/**
 * Runs a plan's tasks in parallel as their dependencies allow. Event-driven: no polling and no
 * timers; each time a task settles, the tasks it made ready start in the same microtask chain.
 *
 * A failed task blocks its transitive dependents while independent tasks go on. Once nothing
 * else can run, `onFailure` is asked about each failed task in turn and its answer applied at
 * once: retry, resolve (a merge conflict, in the task's worktree) and skip resume dispatch (a skipped dependency counts as satisfied); abort and
 * revise end the run. Tasks interrupted by a stop or an abort end as `cancelled`. The run's
 * promise resolves only after every started task has settled, so no task outlives it.
 */
export class PlanScheduler {
  private readonly graph: TaskGraph;
  private readonly concurrency: number;
  private readonly runTask: PlanSchedulerOptions['runTask'];
  private readonly onFailure: PlanSchedulerOptions['onFailure'];
  private readonly onStateChange: PlanSchedulerOptions['onStateChange'];
  private readonly states = new Map<string, TaskState>();
  private readonly outcomes = new Map<string, TaskOutcome>();
  private readonly running = new Map<string, AbortController>();
  /** When each task completed or was skipped in this run (performance.now()). */
  private readonly satisfiedAt = new Map<string, number>();
  private readonly delays: number[] = [];
  private started = false;
  private deciding = false;
  /** Set once the run is to end; it does when the last running task settles. */
  private ending: RunStatus | undefined;
  private done = false;
  private reviseFeedback: string | undefined;
  /** Tasks whose conflict the user chose to resolve: their next run is in resolve mode. */
  private readonly resolving = new Set<string>();
  private settle:
    | { resolve: (result: SchedulerResult) => void; reject: (error: unknown) => void }
    | undefined;
  private detachStop: () => void = () => {};

  constructor(options: PlanSchedulerOptions) {
    const concurrency = options.concurrency ?? DEFAULT_PLAN_CONCURRENCY;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`The plan concurrency must be a whole number of at least 1, not ${concurrency}.`);
    }
    this.graph = options.graph;
    this.concurrency = concurrency;
    this.runTask = options.runTask;
    this.onFailure = options.onFailure;
    this.onStateChange = options.onStateChange;
    for (const task of this.graph.tasks) this.states.set(task.id, 'pending');
    for (const [id, state] of options.initialState ?? []) {
      if (this.graph.get(id) === undefined)
        throw new Error(`The initial state names "${id}", which is not in the plan.`);
      this.states.set(id, state === 'in_progress' ? 'pending' : state);
    }
  }

  /**
   * For each task started after a dependency completed or was skipped in this run: the time in
   * ms from the last such dependency to the task's start. It includes any wait for a free slot.
   */
  get dispatchDelaysMs(): readonly number[] {
    return [...this.delays];
  }

  /** Runs the plan until it completes, a failure decision ends it, or `signal` aborts. Once only. */
  run(signal?: AbortSignal): Promise<SchedulerResult> {
    if (this.started) throw new Error('A PlanScheduler runs once; create a new one to run the plan again.');
    this.started = true;
    return new Promise<SchedulerResult>((resolve, reject) => {
      this.settle = { resolve, reject };
      this.guard(() => {
        if (signal?.aborted) {
          this.end('stopped');
          return;
        }
        if (signal !== undefined) {
          const onStop = () => this.guard(() => this.end('stopped'));
          signal.addEventListener('abort', onStop, { once: true });
          this.detachStop = () => signal.removeEventListener('abort', onStop);
        }
        this.refreshBlocked();
        this.pump();
      });
    });
  }

  /** Starts what is ready, or decides what comes next when nothing runs. */
  private pump(): void {
    if (this.done) return;
    if (this.ending !== undefined) {
      if (this.running.size === 0) this.finish();
      return;
    }
    const free = this.concurrency - this.running.size;
    if (free > 0) {
      // Every ready task is marked started first, then each is run: the synchronous start-up
      // work of one task (building its first model call) does not delay the start of the next.
      const starting = this.graph
        .readySet(this.states)
        .slice(0, free)
        .map((id) => this.claim(this.graph.get(id)!));
      for (const start of starting) start();
    }
    if (this.running.size > 0 || this.deciding) return;
    const failed = this.graph.tasks.filter((task) => this.states.get(task.id) === 'failed');
    if (failed.length === 0) {
      this.end('completed');
      return;
    }
    this.deciding = true;
    this.decide(failed).then(
      () => this.guard(() => this.pump()),
      (error: unknown) => this.crash(error),
    );
  }

  /** Marks a task as running and returns the function that runs it. */
  private claim(task: PlanTask): () => void {
    const controller = new AbortController();
    this.running.set(task.id, controller);
    this.setState(task.id, 'in_progress');
    const dependenciesDone = this.graph
      .dependenciesOf(task.id)
      .map((id) => this.satisfiedAt.get(id))
      .filter((at) => at !== undefined);
    const startedAt = performance.now();
    if (dependenciesDone.length > 0) this.delays.push(startedAt - Math.max(...dependenciesDone));
    return () => this.dispatch(task, controller);
  }

  private dispatch(task: PlanTask, controller: AbortController): void {
    // An earlier task's start-up may have stopped the run synchronously (through its signal).
    if (this.ending !== undefined || this.done || controller.signal.aborted) {
      controller.abort();
      this.guard(() => this.settled(task.id, { status: 'failed', reason: 'stopped before it started' }));
      return;
    }
    let outcome: Promise<TaskOutcome>;
    try {
      const resolve = this.resolving.delete(task.id);
      outcome = this.runTask(task, controller.signal, { resolve });
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(
      (result) => this.guard(() => this.settled(task.id, result)),
      (error: unknown) =>
        this.guard(() => this.settled(task.id, { status: 'failed', reason: messageOf(error) })),
    );
  }

  private settled(id: string, outcome: TaskOutcome): void {
    if (this.done) return;
    const now = performance.now();
    const controller = this.running.get(id);
    this.running.delete(id);
    this.outcomes.set(id, outcome);
    if (outcome.status === 'completed') {
      this.satisfiedAt.set(id, now);
      this.setState(id, 'completed', outcome.summary);
    } else if (controller?.signal.aborted) {
      this.setState(id, 'cancelled', outcome.reason);
    } else {
      this.setState(id, 'failed', outcome.reason);
      this.refreshBlocked();
    }
    this.pump();
  }

  /** Asks about each failed task in turn and applies each answer at once. */
  private async decide(failed: readonly PlanTask[]): Promise<void> {
    try {
      for (const task of failed) {
        if (this.ending !== undefined || this.done) return;
        const outcome = this.outcomes.get(task.id);
        const reason = outcome?.status === 'failed' ? outcome.reason : 'It failed in an earlier run.';
        const conflict = outcome?.status === 'failed' && outcome.conflict === true;
        const blocked = this.graph
          .transitiveDependentsOf(task.id)
          .filter((id) => this.states.get(id) === 'blocked')
          .map((id) => this.graph.get(id)!);
        const decision = await this.onFailure({ task, reason, blocked, conflict });
        // The user may have stopped the run while the question was open.
        if (this.ending !== undefined || this.done) return;
        switch (decision.action) {
          case 'retry':
            this.setState(task.id, 'pending', 'retry');
            break;
          case 'resolve':
            if (conflict) {
              this.resolving.add(task.id);
              this.setState(task.id, 'pending', 'resolve');
            } else this.setState(task.id, 'pending', 'retry');
            break;
          case 'skip':
            this.satisfiedAt.set(task.id, performance.now());
            this.setState(task.id, 'skipped');
            break;
          case 'abort':
            this.end('aborted');
            return;
          case 'revise':
            this.reviseFeedback = decision.feedback;
            this.end('revise');
            return;
        }
        this.refreshBlocked();
        this.pump();
      }
    } finally {
      this.deciding = false;
    }
  }

  /** Blocks pending tasks that wait on a failed or cancelled task, and frees those that no longer do. */
  private refreshBlocked(): void {
    const blockedBy = new Map<string, string>();
    for (const task of this.graph.tasks) {
      const state = this.states.get(task.id);
      if (state !== 'failed' && state !== 'cancelled') continue;
      for (const dependent of this.graph.transitiveDependentsOf(task.id)) {
        if (!blockedBy.has(dependent)) blockedBy.set(dependent, task.id);
      }
    }
    for (const task of this.graph.tasks) {
      const state = this.states.get(task.id);
      const source = blockedBy.get(task.id);
      if (state === 'pending' && source !== undefined) {
        const what = this.states.get(source) === 'failed' ? 'failed' : 'was cancelled';
        this.setState(task.id, 'blocked', `It waits for task "${source}", which ${what}.`);
      } else if (state === 'blocked' && source === undefined) {
        this.setState(task.id, 'pending');
      }
    }
  }

  private setState(id: string, state: TaskState, detail?: string): void {
    this.states.set(id, state);
    this.onStateChange?.(id, state, detail);
  }

  private end(status: RunStatus): void {
    if (this.ending !== undefined || this.done) return;
    this.ending = status;
    if (status === 'stopped' || status === 'aborted') {
      for (const controller of this.running.values()) controller.abort();
    }
    if (this.running.size === 0) this.finish();
  }

  private finish(): void {
    if (this.done || this.ending === undefined) return;
    this.done = true;
    this.detachStop();
    this.settle?.resolve({
      status: this.ending,
      states: new Map(this.states),
      outcomes: new Map(this.outcomes),
      ...(this.reviseFeedback ? { feedback: this.reviseFeedback } : {}),
    });
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.crash(error);
    }
  }

  /** A callback threw: the run cannot be trusted to go on, so running tasks are aborted and run() rejects. */
  private crash(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.detachStop();
    for (const controller of this.running.values()) controller.abort();
    this.settle?.reject(error);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
