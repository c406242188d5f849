import type { Transaction } from 'better-sqlite3';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import { planQueue } from '../defaults.js';
import { newId } from '../ids.js';
import {
  type CreatePlanInput,
  checkPlan,
  dependencyKeys,
  newPlanRow,
  PLAN_STATUS_FROM,
  type PlanStore,
  type PlanTask,
  type PlanTaskInput,
  planStatusRefusal,
} from '../plan-store.js';
import type { SyncPort } from '../ports.js';
import { TaskStoreError, unknownTask } from '../store-errors.js';
import { changeRefusal, leaseExpiry } from '../task-changes.js';
import type {
  AddTaskInput,
  ClaimOptions,
  CompleteAndClaimInput,
  FailAndClaimInput,
  HandOffOptions,
  OwnerCheck,
  StartOptions,
  TaskFilter,
  TaskQueue,
} from '../task-queue.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { resolveIdPrefix } from './id-lookup.js';
import {
  DEFAULT_QUEUE,
  type Plan,
  type PlanStatus,
  plans,
  type Task,
  type TaskStatus,
  taskDependencies,
  tasks,
} from './schema.js';
import type { SqliteSignals } from './sqlite-signals.js';
import {
  type ChangeValues,
  dependency,
  prepareTaskQueries,
  type TaskChange,
  unfinishedPlan,
} from './task-queries.js';

export type {
  AddTaskInput,
  ClaimOptions,
  CompleteAndClaimInput,
  CreatePlanInput,
  FailAndClaimInput,
  HandOffOptions,
  OwnerCheck,
  PlanTask,
  PlanTaskInput,
  StartOptions,
  TaskFilter,
};
export { TaskStoreError };

export interface TaskStoreOptions {
  now?: () => number;
  /** Told of every task change after which a waiting worker may find something to claim. */
  signals?: Pick<SqliteSignals, 'taskChanged'>;
}

export { planQueue };

/**
 * The persistent to-do list and work queue. Each queue runs one task at a time: claimNext hands
 * out the lowest-sequence pending task whose dependencies are completed, under a lease that the
 * worker renews; a lease that expires puts the task back in line, so work interrupted by a
 * crash is resumed. Every change is one SQLite transaction, safe across processes.
 */
export class TaskStore implements SyncPort<TaskQueue & PlanStore> {
  private readonly orm: StoreDrizzle;
  private readonly now: () => number;
  private readonly signals: TaskStoreOptions['signals'];
  private readonly queries: ReturnType<typeof prepareTaskQueries>;
  private readonly inTransaction: Transaction<(work: () => void) => void>;

  constructor(db: TaskweaveDb, options: TaskStoreOptions = {}) {
    this.orm = db.drizzle;
    this.inTransaction = db.sqlite.transaction((work: () => void) => work());
    this.now = options.now ?? Date.now;
    this.queries = prepareTaskQueries(this.orm);
    this.signals = options.signals;
  }

  /** Tells the signals of each changed task's queue (a worker waiting on it may claim now). */
  private announce(...changed: readonly (Task | undefined)[]): void {
    for (const task of changed) if (task !== undefined) this.signals?.taskChanged(task.queue);
  }

  /** The task, once its change is announced. */
  private announced(task: Task): Task {
    this.announce(task);
    return task;
  }

  /** Adds a task at the end of its queue. */
  add(input: AddTaskInput): Task {
    return this.announced(this.immediate(() => this.insertTask(input, this.now())));
  }

  /**
   * Adds a task and starts it under the owner's lease when its queue is idle, in one IMMEDIATE
   * transaction: no other worker can claim it between the two.
   */
  addAndStartIfIdle(
    input: AddTaskInput,
    options: { owner: string; leaseMs: number },
  ): { task: Task; started: boolean } {
    const added = this.immediate(() => {
      const task = this.insertTask(input, this.now());
      const busy = this.queries.inProgress.all({ queue: task.queue }).length > 0;
      if (busy) return { task, started: false };
      return { task: this.start(task.id, options), started: true };
    });
    this.announce(added.task);
    return added;
  }

  /** The full id of the task a user means by an id or a unique prefix of it (IdLookupError otherwise). */
  resolveId(input: string): string {
    return resolveIdPrefix(this.orm, 'task', input);
  }

  /** The task, or undefined for an unknown id. */
  get(id: string): Task | undefined {
    return this.queries.getById.get({ id });
  }

  /** Pending and in-progress tasks in the order they will run (of one queue, or of all by queue). */
  listActive(queue?: string): Task[] {
    return this.listAll({ status: ['pending', 'in_progress'], ...(queue === undefined ? {} : { queue }) });
  }

  /** Tasks matching the filter, by queue and sequence. */
  listAll(filter: TaskFilter = {}): Task[] {
    const conditions: SQL[] = [];
    if (filter.queue !== undefined) conditions.push(eq(tasks.queue, filter.queue));
    if (filter.sessionId !== undefined) conditions.push(eq(tasks.sessionId, filter.sessionId));
    if (filter.planId !== undefined) conditions.push(eq(tasks.planId, filter.planId));
    if (filter.status !== undefined) {
      const statuses: readonly TaskStatus[] =
        typeof filter.status === 'string' ? [filter.status] : filter.status;
      conditions.push(inArray(tasks.status, [...statuses]));
    }
    return this.orm
      .select()
      .from(tasks)
      .where(and(...conditions))
      .orderBy(asc(tasks.queue), asc(tasks.sequence))
      .all();
  }

  /** The ids of the tasks this one depends on. */
  dependencies(id: string): string[] {
    return this.orm
      .select({ id: taskDependencies.dependsOnId })
      .from(taskDependencies)
      .where(eq(taskDependencies.taskId, id))
      .all()
      .map((row) => row.id);
  }

  /**
   * Takes the next task of a queue, in one IMMEDIATE transaction so that two processes never
   * both get one: undefined while another task of the queue is in progress under a live lease
   * (or with no lease), else the lowest-sequence pending task whose dependencies are all
   * completed, now in progress under `owner`'s lease with one more attempt. Expired leases of
   * the queue are released first, so an interrupted task is handed out again.
   */
  claimNext(options: ClaimOptions): Task | undefined {
    const queue = options.queue ?? DEFAULT_QUEUE;
    return this.immediate(() => this.claimWithin(queue, options, this.now()));
  }

  /**
   * The worker loop's step, in one IMMEDIATE transaction (one commit): completes the worker's
   * task (refused, with nothing changed, unless `owner` still holds its lease) and claims the
   * next task of the same queue exactly as claimNext would; `next` is undefined when none can
   * run now. No other process ever sees the task completed and the next one not yet taken.
   */
  completeAndClaimNext(input: CompleteAndClaimInput): { completed: Task; next: Task | undefined } {
    const handedOff = this.immediate(() => {
      const now = this.now();
      const completed = this.change('complete', {
        id: input.id,
        now,
        text: input.resultSummary,
        owner: input.owner,
        attempt: input.attempt,
      });
      return { completed, next: this.claimAfter(completed, input, now) };
    });
    this.announce(handedOff.completed, handedOff.next);
    return handedOff;
  }

  /**
   * completeAndClaimNext for a task that failed: in one transaction the task is marked failed
   * with the reason, and the next task of the queue is claimed. The tasks that depend on the
   * failed one stay pending and are not handed out.
   */
  failAndClaimNext(input: FailAndClaimInput): { failed: Task; next: Task | undefined } {
    const handedOff = this.immediate(() => {
      const now = this.now();
      const failed = this.change('fail', {
        id: input.id,
        now,
        text: input.reason,
        owner: input.owner,
        attempt: input.attempt,
      });
      return { failed, next: this.claimAfter(failed, input, now) };
    });
    this.announce(handedOff.failed, handedOff.next);
    return handedOff;
  }

  /**
   * Starts one given task (pending → in progress, one more attempt), for a scheduler that runs
   * a plan's independent tasks in parallel; claimNext is the one-at-a-time way.
   */
  start(id: string, options: StartOptions = {}): Task {
    const now = this.now();
    return this.change('start', {
      id,
      now,
      leaseOwner: options.owner ?? null,
      leaseExpiresAt: leaseExpiry(now, options.leaseMs),
    });
  }

  /**
   * Takes an in-progress task over from a worker known to be gone (its lease expired, or its
   * process is dead): compare-and-swap on the previous owner, so two takers cannot both win. The
   * takeover counts one more attempt: the fencing token the old holder carries is over.
   */
  takeOver(id: string, options: { from: string | null; owner: string; leaseMs: number }): Task | undefined {
    const now = this.now();
    return this.orm
      .update(tasks)
      .set({
        leaseOwner: options.owner,
        leaseExpiresAt: leaseExpiry(now, options.leaseMs),
        attempts: sql`${tasks.attempts} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(tasks.id, id),
          eq(tasks.status, 'in_progress'),
          options.from === null ? isNull(tasks.leaseOwner) : eq(tasks.leaseOwner, options.from),
        ),
      )
      .returning()
      .get();
  }

  /**
   * Extends a live lease; false when the owner no longer holds it (expired, released or taken),
   * or, with `attempt` (the fencing token), when another claim or takeover happened since.
   */
  renewLease(id: string, owner: string, leaseMs: number, attempt?: number): boolean {
    const now = this.now();
    const values = { id, owner, now, leaseExpiresAt: now + leaseMs };
    if (attempt === undefined) return this.queries.renewLease.all(values).length === 1;
    return this.queries.renewFencedLease.all({ ...values, attempt }).length === 1;
  }

  /** Puts every in-progress task whose lease has expired back to pending; returns them. */
  releaseExpiredLeases(now: number = this.now()): Task[] {
    const released = this.orm
      .update(tasks)
      .set({ status: 'pending', leaseOwner: null, leaseExpiresAt: null, updatedAt: now })
      .where(and(eq(tasks.status, 'in_progress'), lte(tasks.leaseExpiresAt, now)))
      .returning()
      .all();
    this.announce(...released);
    return released;
  }

  /** In progress → completed. */
  complete(id: string, resultSummary: string, check: OwnerCheck = {}): Task {
    return this.announced(this.change('complete', { id, now: this.now(), text: resultSummary, ...check }));
  }

  /** In progress → failed. */
  fail(id: string, reason: string, check: OwnerCheck = {}): Task {
    return this.announced(this.change('fail', { id, now: this.now(), text: reason, ...check }));
  }

  /**
   * Pending or in progress → blocked (on the user, or on a failed dependency); the reason goes in
   * failReason. With a holder check, only the in-progress task its worker still holds.
   */
  block(id: string, reason: string, check: OwnerCheck = {}): Task {
    return this.announced(this.change('block', { id, now: this.now(), text: reason, ...check }));
  }

  /**
   * Completes or fails a task that is pending or in progress, for someone who did (or gave up)
   * the work outside the queue's worker: a pending task is started first, in the same
   * transaction (it counts one attempt). Other statuses are refused with a TaskStoreError.
   */
  settle(id: string, change: 'complete' | 'fail', text: string): Task {
    return this.announced(
      this.immediate(() => {
        const now = this.now();
        const task = this.get(id);
        if (task?.status === 'pending')
          this.change('start', { id, now, leaseOwner: null, leaseExpiresAt: null });
        return this.change(change, { id, now, text });
      }),
    );
  }

  /**
   * Records the session a task is worked in, once: a task added outside a session gets the one
   * its first worker creates, so a later worker (after a crash) continues that session.
   */
  attachSession(id: string, sessionId: string): Task {
    const updated = this.orm
      .update(tasks)
      .set({ sessionId, updatedAt: this.now() })
      .where(and(eq(tasks.id, id), isNull(tasks.sessionId)))
      .returning()
      .get();
    if (updated !== undefined) return updated;
    const current = this.get(id);
    if (current === undefined) throw unknownTask(id);
    if (current.sessionId === sessionId) return current;
    throw new TaskStoreError(`Task ${id} already belongs to session ${current.sessionId}.`, {
      id,
      status: current.status,
    });
  }

  /**
   * Forgets the settings the waiting tasks were queued with (they run with the worker's own):
   * for work that came with a database from elsewhere, whose settings nobody here chose.
   * Returns how many tasks had some.
   */
  clearRunSettings(): number {
    return this.orm
      .update(tasks)
      .set({ runSettings: null, updatedAt: this.now() })
      .where(and(inArray(tasks.status, ['pending', 'in_progress']), isNotNull(tasks.runSettings)))
      .returning({ id: tasks.id })
      .all().length;
  }

  /** A plan task the user chose to skip → skipped; tasks that depend on it may run. */
  skip(id: string): Task {
    return this.announced(this.change('skip', { id, now: this.now() }));
  }

  /**
   * Starts the given task if its queue is idle (no other task in progress), in one IMMEDIATE
   * transaction: a queue runs one task at a time, whoever asks. False when another task runs, or
   * when another worker has already claimed this one.
   */
  startIfIdle(id: string, options: { owner: string; leaseMs: number }): boolean {
    return this.immediate(() => {
      const task = this.get(id);
      if (task === undefined) throw unknownTask(id);
      // Another worker claimed it between its adding and now: it runs there.
      if (task.status !== 'pending') return false;
      const busy = this.queries.inProgress.all({ queue: task.queue }).some((other) => other.id !== id);
      if (busy) return false;
      this.start(id, options);
      return true;
    });
  }

  /** Anything not completed or already cancelled → cancelled. */
  cancel(id: string): Task {
    return this.announced(this.change('cancel', { id, now: this.now() }));
  }

  /**
   * Pending or in progress → stopped (the user stopped the goal; `resume` continues it); the
   * reason goes in failReason. With a holder check, only the in-progress task its worker holds.
   */
  stop(id: string, reason: string, check: OwnerCheck = {}): Task {
    return this.announced(this.change('stop', { id, now: this.now(), text: reason, ...check }));
  }

  /**
   * Puts a blocked task back in the queue: what it waited for came (an answer to its session's
   * question). Refused (TaskStoreError) unless it is blocked, so that of two processes reopening
   * it at once one does, and a task claimed meanwhile is left to its worker.
   */
  reopen(id: string): Task {
    return this.announced(this.change('reopen', { id, now: this.now() }));
  }

  /**
   * In progress, failed, blocked, cancelled or stopped → pending, to be run again; the reason is cleared.
   * With a holder check, only the in-progress task its worker still holds (a worker giving it back).
   */
  resetToPending(id: string, check: OwnerCheck = {}): Task {
    return this.announced(this.change('reset to pending', { id, now: this.now(), ...check }));
  }

  /** Removes a task that is not in progress, with its dependency rows both ways. */
  delete(id: string): Task {
    const deleted = this.orm
      .delete(tasks)
      .where(and(eq(tasks.id, id), ne(tasks.status, 'in_progress')))
      .returning()
      .get();
    if (deleted !== undefined) return this.announced(deleted);
    const current = this.get(id);
    if (current === undefined) throw unknownTask(id);
    throw new TaskStoreError(`Cannot delete task ${id}: it is in_progress; cancel it first.`, {
      id,
      status: current.status,
    });
  }

  /**
   * Stores a plan (status proposed) and its tasks in one transaction, in the given order, each
   * task's `dependsOn` keys turned into dependency rows. Refuses duplicate and unknown keys;
   * checking for cycles is the plan module's job.
   */
  createPlan(input: CreatePlanInput): { plan: Plan; tasks: PlanTask[] } {
    checkPlan(input.tasks);
    const stored = this.immediate(() => {
      const now = this.now();
      const plan = this.orm.insert(plans).values(newPlanRow(input, now)).returning().get();
      const queue = input.queue ?? planQueue(plan.id);
      const idsByKey = new Map<string, string>();
      const created = input.tasks.map((task) => {
        const row = this.insertTask(
          {
            title: task.title,
            description: task.description,
            sessionId: input.sessionId,
            planId: plan.id,
            key: task.key,
            queue,
            ...(task.check === undefined ? {} : { checkCommand: task.check }),
          },
          now,
        );
        idsByKey.set(task.key, row.id);
        return { ...row, dependsOn: dependencyKeys(task) };
      });
      // Written after every task exists: a task may depend on one listed after it.
      const edges = created.flatMap((task) =>
        task.dependsOn.map((key) => ({ taskId: task.id, dependsOnId: idsByKey.get(key)! })),
      );
      if (edges.length > 0) this.orm.insert(taskDependencies).values(edges).run();
      return { plan, tasks: created };
    });
    // The plan's tasks share one queue: one wake-up says it.
    this.announce(stored.tasks[0]);
    return stored;
  }

  /** The plan, or undefined for an unknown id. */
  getPlan(id: string): Plan | undefined {
    return this.orm.select().from(plans).where(eq(plans.id, id)).get();
  }

  /** The newest plan of a session, whatever its status (undefined when it has none). */
  lastPlan(sessionId: string): Plan | undefined {
    return this.orm
      .select()
      .from(plans)
      .where(eq(plans.sessionId, sessionId))
      .orderBy(desc(plans.createdAt), desc(plans.id))
      .limit(1)
      .get();
  }

  /**
   * Moves a plan along: proposed → approved or rejected (with the user's feedback), approved →
   * completed, proposed or approved → aborted. A rejected plan's tasks are cancelled with it in
   * the same transaction: none of them will ever run.
   */
  setPlanStatus(planId: string, status: PlanStatus, feedback?: string): Plan {
    const updated = this.immediate(() => {
      const now = this.now();
      const plan = this.orm
        .update(plans)
        .set({ status, updatedAt: now, ...(feedback === undefined ? {} : { feedback }) })
        .where(and(eq(plans.id, planId), inArray(plans.status, [...PLAN_STATUS_FROM[status]])))
        .returning()
        .get();
      if (plan !== undefined && status === 'rejected')
        this.orm
          .update(tasks)
          .set({ status: 'cancelled', updatedAt: now })
          .where(and(eq(tasks.planId, planId), eq(tasks.status, 'pending')))
          .run();
      return plan;
    });
    if (updated !== undefined) return updated;
    const current = this.getPlan(planId);
    throw planStatusRefusal(current, planId, status);
  }

  /**
   * Approved plans that still have a task to finish (one not completed or cancelled), of one
   * session or of all, newest first: the plans a resumed run picks up (planTasks gives their state).
   */
  unfinishedPlans(sessionId?: string): Plan[] {
    return this.orm
      .select()
      .from(plans)
      .where(
        and(sessionId === undefined ? undefined : eq(plans.sessionId, sessionId), unfinishedPlan(this.orm)),
      )
      .orderBy(desc(plans.createdAt), desc(plans.id))
      .all();
  }

  /**
   * The tasks of a plan in order, each row whole (status, attempts, result summary, fail reason,
   * check command, lease) with the keys of the tasks it depends on: enough to rebuild the graph
   * and the state of every task when a run resumes.
   */
  planTasks(planId: string): PlanTask[] {
    const rows = this.orm
      .select()
      .from(tasks)
      .where(eq(tasks.planId, planId))
      .orderBy(asc(tasks.sequence))
      .all();
    const edges = this.orm
      .select({ taskId: taskDependencies.taskId, key: dependency.key })
      .from(taskDependencies)
      .innerJoin(tasks, eq(tasks.id, taskDependencies.taskId))
      .innerJoin(dependency, eq(dependency.id, taskDependencies.dependsOnId))
      .where(eq(tasks.planId, planId))
      .all();
    return rows.map((row) => ({
      ...row,
      dependsOn: edges.flatMap((edge) => (edge.taskId === row.id && edge.key !== null ? [edge.key] : [])),
    }));
  }

  /**
   * Runs `work` in an IMMEDIATE transaction (the write lock is taken at BEGIN, so a read inside
   * cannot go stale before the write). better-sqlite3 is synchronous: every query the work makes
   * runs inside it. One transaction function serves every call; creating one per call (as
   * drizzle's `transaction` does) costs more than a claim's queries.
   */
  private immediate<T>(work: () => T): T {
    let result!: T;
    this.inTransaction.immediate(() => {
      result = work();
    });
    return result;
  }

  /**
   * claimNext's work, inside a transaction the caller holds: releases the queue's expired
   * leases, then takes the lowest-sequence runnable task unless one is already in progress.
   */
  private claimWithin(
    queue: string,
    options: { owner: string; leaseMs: number; afterSequence?: number },
    now: number,
  ): Task | undefined {
    const { owner, leaseMs } = options;
    const running = this.queries.inProgress.all({ queue });
    // The release is an UPDATE, skipped unless it has something to do: on the worker's hot path
    // it cost ~15% of a hand-off's CPU time while matching nothing.
    if (running.some((task) => task.leaseExpiresAt !== null && task.leaseExpiresAt <= now)) {
      this.queries.releaseExpiredInQueue.run({ queue, now });
    }
    if (running.some((task) => task.leaseExpiresAt === null || task.leaseExpiresAt > now)) return undefined;
    const next = this.queries.nextClaimable.get({ queue, afterSequence: options.afterSequence ?? 0 });
    if (next === undefined) return undefined;
    return this.queries
      .change('start')
      .get({ id: next.id, now, leaseOwner: owner, leaseExpiresAt: now + leaseMs });
  }

  /** The claim of a hand-off, from the queue of the task that just ended. */
  private claimAfter(ended: Task, options: HandOffOptions, now: number): Task | undefined {
    if (options.queue !== undefined && options.queue !== ended.queue) {
      // Thrown inside the transaction: the task's change is rolled back with it.
      throw new TaskStoreError(
        `Cannot hand off task ${ended.id} to the queue ${options.queue}: the task is of the queue ${ended.queue}.`,
        { id: ended.id, status: 'in_progress' },
      );
    }
    return this.claimWithin(ended.queue, options, now);
  }

  private insertTask(input: AddTaskInput, now: number): Task {
    const queue = input.queue ?? DEFAULT_QUEUE;
    const dependsOn = [...new Set(input.dependsOn ?? [])];
    for (const dependsOnId of dependsOn) {
      if (this.get(dependsOnId) === undefined) {
        throw new TaskStoreError(
          `Cannot add task "${input.title}": it depends on ${dependsOnId}, which does not exist.`,
          { id: dependsOnId },
        );
      }
    }
    const last = this.queries.lastSequence.get({ queue })?.last ?? 0;
    const task = this.queries.insertTask.get({
      id: newId('task'),
      sessionId: input.sessionId ?? null,
      planId: input.planId ?? null,
      parentId: input.parentId ?? null,
      queue,
      key: input.key ?? null,
      title: input.title,
      description: input.description ?? '',
      checkCommand: input.checkCommand ?? null,
      runSettings: input.runSettings ?? null,
      sequence: last + 1,
      now,
    })!;
    for (const dependsOnId of dependsOn) this.queries.insertDependency.run({ id: task.id, dependsOnId });
    return task;
  }

  /**
   * One conditional UPDATE, atomic without a transaction; when it matches nothing, the task is
   * read to say why (unknown id, a status the change does not start from, or a lost lease).
   */
  private change(change: TaskChange, values: ChangeValues): Task {
    const checks = { owner: values.owner !== undefined, attempt: values.attempt !== undefined };
    const updated = this.queries.change(change, checks).get(values);
    if (updated !== undefined) return updated;
    throw changeRefusal(change, values.id, this.get(values.id), values);
  }
}
