import {
  and,
  asc,
  desc,
  eq,
  exists,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  max,
  ne,
  notExists,
  notInArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { DEFAULT_QUEUE, planQueue } from '../defaults.js';
import { newId } from '../ids.js';
import {
  type CreatePlanInput,
  checkPlan,
  dependencyKeys,
  newPlanRow,
  PLAN_STATUS_FROM,
  type PlanTask,
  planStatusRefusal,
} from '../plan-store.js';
import type { PlanStore, TaskQueue } from '../ports.js';
import type { Plan, Task } from '../rows.js';
import { TaskStoreError, unknownTask } from '../store-errors.js';
import {
  changeRefusal,
  FINISHED_TASK_STATUSES,
  type HolderCheck,
  leaseExpiry,
  SATISFIED_DEPENDENCY_STATUSES,
  TASK_CHANGE_FROM,
  type TaskChange,
} from '../task-changes.js';
import type {
  AddTaskInput,
  ClaimOptions,
  CompleteAndClaimInput,
  FailAndClaimInput,
  HandOffOptions,
  StartOptions,
  TaskFilter,
} from '../task-queue.js';
import type { PlanStatus, TaskStatus } from '../vocabulary.js';
import { queueNotice } from './channels.js';
import type { PgDb } from './connection.js';
import type { PgContext } from './context.js';
import { resolvePgIdPrefix } from './id-lookup.js';
import { lockQueue } from './locks.js';
import { plans, taskDependencies, tasks } from './schema.js';

const RELEASED = { leaseOwner: null, leaseExpiresAt: null } as const;

/** A task row, as `returning` gives it back. */
const TASK_COLUMNS = getTableColumns(tasks);

/** A task row and the announcement of its queue (queueNotice), returned by the statement that wrote it. */
const TASK_COLUMNS_ANNOUNCED = { ...TASK_COLUMNS, announced: queueNotice(tasks.queue) };

/** The row without the announcement's (empty) value. */
function withoutNotice<T extends { announced: unknown }>({ announced: _, ...task }: T): Omit<T, 'announced'> {
  return task;
}

/** The tasks table again, as the task a dependency row points to. */
const dependency = alias(tasks, 'dependency');

/** What a change sets; `text` is the summary or reason, the lease what a start takes. */
interface ChangeValues extends HolderCheck {
  id: string;
  now: number;
  text?: string;
  leaseOwner?: string | null;
  leaseExpiresAt?: number | null;
}

function changeSet(change: TaskChange, values: ChangeValues): PgUpdateSetSource<typeof tasks> {
  const text = values.text ?? null;
  switch (change) {
    case 'start':
      return {
        status: 'in_progress',
        attempts: sql`${tasks.attempts} + 1`,
        leaseOwner: values.leaseOwner ?? null,
        leaseExpiresAt: values.leaseExpiresAt ?? null,
      };
    case 'complete':
      return { status: 'completed', resultSummary: text, ...RELEASED };
    case 'fail':
      return { status: 'failed', failReason: text, ...RELEASED };
    case 'block':
      return { status: 'blocked', failReason: text, ...RELEASED };
    case 'skip':
      return { status: 'skipped', ...RELEASED };
    case 'cancel':
      return { status: 'cancelled', ...RELEASED };
    case 'stop':
      return { status: 'stopped', failReason: text, ...RELEASED };
    case 'reset to pending':
    case 'reopen':
      return { status: 'pending', failReason: null, ...RELEASED };
  }
}

/** The task is in progress under the holder (owner, and the attempt it claimed: the fencing token). */
function heldBy(check: HolderCheck): SQL | undefined {
  if (check.owner === undefined && check.attempt === undefined) return undefined;
  return and(
    eq(tasks.status, 'in_progress'),
    check.owner === undefined ? undefined : eq(tasks.leaseOwner, check.owner),
    check.attempt === undefined ? undefined : eq(tasks.attempts, check.attempt),
  );
}

/** An approved plan with a task still to finish; `plans` is the outer query's row. */
export function unfinishedPlan(db: PgDb): SQL | undefined {
  return and(
    eq(plans.status, 'approved'),
    exists(
      db
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.planId, plans.id), notInArray(tasks.status, [...FINISHED_TASK_STATUSES]))),
    ),
  );
}

/**
 * The task queue and plans in PostgreSQL, with the contracts of the SQLite TaskStore (its
 * documentation is the reference). Several processes on several machines share it: a claim
 * holds its queue's advisory lock (the serial rule: one task in progress per queue) and takes
 * the next runnable task `FOR UPDATE SKIP LOCKED`, under a lease; the attempt it counts is the
 * fencing token every later change of the worker may carry. Changes announce their queue with
 * NOTIFY, at commit.
 */
export class PgTaskStore implements TaskQueue, PlanStore {
  constructor(
    private readonly ctx: PgContext,
    private readonly now: () => number = Date.now,
  ) {}

  private get db(): PgDb {
    return this.ctx.db;
  }

  async add(input: AddTaskInput): Promise<Task> {
    return this.ctx.transaction(() => this.insertTask(input, this.now()));
  }

  async addAndStartIfIdle(
    input: AddTaskInput,
    options: { owner: string; leaseMs: number },
  ): Promise<{ task: Task; started: boolean }> {
    return this.ctx.transaction(async () => {
      const task = await this.insertTask(input, this.now());
      if ((await this.inProgress(task.queue)).length > 0) return { task, started: false };
      return { task: await this.start(task.id, options), started: true };
    });
  }

  async resolveId(input: string): Promise<string> {
    return resolvePgIdPrefix(this.db, 'task', input);
  }

  async get(id: string): Promise<Task | undefined> {
    const [row] = await this.db.select().from(tasks).where(eq(tasks.id, id));
    return row;
  }

  async listActive(queue?: string): Promise<Task[]> {
    return this.listAll({ status: ['pending', 'in_progress'], ...(queue === undefined ? {} : { queue }) });
  }

  async listAll(filter: TaskFilter = {}): Promise<Task[]> {
    const conditions: SQL[] = [];
    if (filter.queue !== undefined) conditions.push(eq(tasks.queue, filter.queue));
    if (filter.sessionId !== undefined) conditions.push(eq(tasks.sessionId, filter.sessionId));
    if (filter.planId !== undefined) conditions.push(eq(tasks.planId, filter.planId));
    if (filter.status !== undefined) {
      const statuses: readonly TaskStatus[] =
        typeof filter.status === 'string' ? [filter.status] : filter.status;
      conditions.push(inArray(tasks.status, [...statuses]));
    }
    return (
      this.db
        .select()
        .from(tasks)
        .where(and(...conditions))
        // "C" collation: queues sort by their bytes, as SQLite sorts text.
        .orderBy(sql`${tasks.queue} collate "C"`, asc(tasks.sequence))
    );
  }

  async dependencies(id: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: taskDependencies.dependsOnId })
      .from(taskDependencies)
      .where(eq(taskDependencies.taskId, id));
    return rows.map((row) => row.id);
  }

  async claimNext(options: ClaimOptions): Promise<Task | undefined> {
    const queue = options.queue ?? DEFAULT_QUEUE;
    return this.ctx.transaction(() => this.claimWithin(queue, options, this.now()));
  }

  async completeAndClaimNext(
    input: CompleteAndClaimInput,
  ): Promise<{ completed: Task; next: Task | undefined }> {
    return this.ctx.transaction(async () => {
      await this.lockQueueOf(input.id);
      const now = this.now();
      const completed = await this.change('complete', {
        id: input.id,
        now,
        text: input.resultSummary,
        owner: input.owner,
        attempt: input.attempt,
      });
      return { completed, next: await this.claimAfter(completed, input, now) };
    });
  }

  async failAndClaimNext(input: FailAndClaimInput): Promise<{ failed: Task; next: Task | undefined }> {
    return this.ctx.transaction(async () => {
      await this.lockQueueOf(input.id);
      const now = this.now();
      const failed = await this.change('fail', {
        id: input.id,
        now,
        text: input.reason,
        owner: input.owner,
        attempt: input.attempt,
      });
      return { failed, next: await this.claimAfter(failed, input, now) };
    });
  }

  async start(id: string, options: StartOptions = {}): Promise<Task> {
    const now = this.now();
    return this.change('start', {
      id,
      now,
      leaseOwner: options.owner ?? null,
      leaseExpiresAt: leaseExpiry(now, options.leaseMs),
    });
  }

  async takeOver(
    id: string,
    options: { from: string | null; owner: string; leaseMs: number },
  ): Promise<Task | undefined> {
    const now = this.now();
    const [row] = await this.db
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
      .returning();
    return row;
  }

  async renewLease(id: string, owner: string, leaseMs: number, attempt?: number): Promise<boolean> {
    const now = this.now();
    const rows = await this.db
      .update(tasks)
      .set({ leaseExpiresAt: now + leaseMs, updatedAt: now })
      .where(and(eq(tasks.id, id), heldBy({ owner, attempt })))
      .returning({ id: tasks.id });
    return rows.length === 1;
  }

  async releaseExpiredLeases(now: number = this.now()): Promise<Task[]> {
    return this.ctx.transaction(async (db) => {
      const released = await db
        .update(tasks)
        .set({ status: 'pending', ...RELEASED, updatedAt: now })
        .where(and(eq(tasks.status, 'in_progress'), lte(tasks.leaseExpiresAt, now)))
        .returning(TASK_COLUMNS_ANNOUNCED);
      return released.map(withoutNotice);
    });
  }

  async complete(id: string, resultSummary: string, check: HolderCheck = {}): Promise<Task> {
    return this.change('complete', { id, now: this.now(), text: resultSummary, ...check });
  }

  async fail(id: string, reason: string, check: HolderCheck = {}): Promise<Task> {
    return this.change('fail', { id, now: this.now(), text: reason, ...check });
  }

  async block(id: string, reason: string, check: HolderCheck = {}): Promise<Task> {
    return this.change('block', { id, now: this.now(), text: reason, ...check });
  }

  async settle(id: string, change: 'complete' | 'fail', text: string): Promise<Task> {
    return this.ctx.transaction(async () => {
      const now = this.now();
      const task = await this.get(id);
      if (task?.status === 'pending')
        await this.change('start', { id, now, leaseOwner: null, leaseExpiresAt: null });
      return this.change(change, { id, now, text });
    });
  }

  async attachSession(id: string, sessionId: string): Promise<Task> {
    const [updated] = await this.db
      .update(tasks)
      .set({ sessionId, updatedAt: this.now() })
      .where(and(eq(tasks.id, id), isNull(tasks.sessionId)))
      .returning();
    if (updated !== undefined) return updated;
    const current = await this.get(id);
    if (current === undefined) throw unknownTask(id);
    if (current.sessionId === sessionId) return current;
    throw new TaskStoreError(`Task ${id} already belongs to session ${current.sessionId}.`, {
      id,
      status: current.status,
    });
  }

  async clearRunSettings(): Promise<number> {
    const rows = await this.db
      .update(tasks)
      .set({ runSettings: null, updatedAt: this.now() })
      .where(and(inArray(tasks.status, ['pending', 'in_progress']), isNotNull(tasks.runSettings)))
      .returning({ id: tasks.id });
    return rows.length;
  }

  async skip(id: string): Promise<Task> {
    return this.change('skip', { id, now: this.now() });
  }

  async startIfIdle(id: string, options: { owner: string; leaseMs: number }): Promise<boolean> {
    return this.ctx.transaction(async (db) => {
      const task = await this.get(id);
      if (task === undefined) throw unknownTask(id);
      await lockQueue(db, task.queue);
      // Read again under the queue's lock: another worker may have claimed it meanwhile.
      const current = await this.get(id);
      if (current?.status !== 'pending') return false;
      const busy = (await this.inProgress(task.queue)).some((other) => other.id !== id);
      if (busy) return false;
      await this.start(id, options);
      return true;
    });
  }

  async cancel(id: string): Promise<Task> {
    return this.change('cancel', { id, now: this.now() });
  }

  async stop(id: string, reason: string, check: HolderCheck = {}): Promise<Task> {
    return this.change('stop', { id, now: this.now(), text: reason, ...check });
  }

  async reopen(id: string): Promise<Task> {
    return this.change('reopen', { id, now: this.now() });
  }

  async resetToPending(id: string, check: HolderCheck = {}): Promise<Task> {
    return this.change('reset to pending', { id, now: this.now(), ...check });
  }

  async delete(id: string): Promise<Task> {
    const [deleted] = await this.db
      .delete(tasks)
      .where(and(eq(tasks.id, id), ne(tasks.status, 'in_progress')))
      .returning();
    if (deleted !== undefined) return deleted;
    const current = await this.get(id);
    if (current === undefined) throw unknownTask(id);
    throw new TaskStoreError(`Cannot delete task ${id}: it is in_progress; cancel it first.`, {
      id,
      status: current.status,
    });
  }

  async createPlan(input: CreatePlanInput): Promise<{ plan: Plan; tasks: PlanTask[] }> {
    checkPlan(input.tasks);
    const now = this.now();
    const plan = newPlanRow(input, now);
    const rows = (first: number, queue: string) =>
      input.tasks.map((task, index) => ({
        id: newId('task'),
        sessionId: input.sessionId,
        planId: plan.id,
        parentId: null,
        queue,
        key: task.key,
        title: task.title,
        description: task.description ?? '',
        checkCommand: task.check ?? null,
        runSettings: null,
        status: 'pending' as const,
        sequence: first + index,
        createdAt: now,
        updatedAt: now,
      }));
    const edgesOf = (added: readonly { id: string; key: string | null }[]) => {
      const idsByKey = new Map(added.map((row) => [row.key, row.id]));
      return input.tasks.flatMap((task) =>
        dependencyKeys(task).map((key) => ({
          taskId: idsByKey.get(task.key) ?? task.key,
          dependsOnId: idsByKey.get(key) ?? key,
        })),
      );
    };
    const planTasks = (added: readonly (Task & { announced: unknown })[]): PlanTask[] => {
      const byKey = new Map(added.map((row) => [row.key, withoutNotice(row)]));
      return input.tasks.map((task) => {
        const row = byKey.get(task.key);
        if (row === undefined) throw new Error(`The plan's task ${task.key} was not stored.`);
        return { ...row, dependsOn: dependencyKeys(task) };
      });
    };
    if (input.queue === undefined) {
      // The plan's own queue, new with it: nobody else numbers tasks there, so the plan, its
      // tasks (1…n) and their dependencies go in one statement (one round trip, no transaction:
      // a statement is all or nothing; the foreign keys are checked at its end).
      const db = this.db;
      if (input.tasks.length === 0) {
        await db.insert(plans).values(plan);
        return { plan, tasks: [] };
      }
      const addPlan = db.$with('added_plan').as(db.insert(plans).values(plan).returning({ id: plans.id }));
      const taskRows = rows(1, planQueue(plan.id));
      const edges = edgesOf(taskRows);
      const withEdges =
        edges.length === 0
          ? db.with(addPlan)
          : db.with(
              addPlan,
              db
                .$with('added_edges')
                .as(db.insert(taskDependencies).values(edges).returning({ taskId: taskDependencies.taskId })),
            );
      const added = await withEdges.insert(tasks).values(taskRows).returning(TASK_COLUMNS_ANNOUNCED);
      return { plan, tasks: planTasks(added) };
    }
    const queue = input.queue;
    return this.ctx.transaction(async (db) => {
      await db.insert(plans).values(plan);
      // The plan's tasks in one insert, numbered after the queue's last under its lock (as
      // insertTask does one at a time).
      await lockQueue(db, queue);
      const [last] = await db
        .select({ last: max(tasks.sequence) })
        .from(tasks)
        .where(eq(tasks.queue, queue));
      const taskRows = rows((last?.last ?? 0) + 1, queue);
      const added =
        taskRows.length === 0
          ? []
          : await db.insert(tasks).values(taskRows).returning(TASK_COLUMNS_ANNOUNCED);
      const edges = edgesOf(taskRows);
      if (edges.length > 0) await db.insert(taskDependencies).values(edges);
      return { plan, tasks: planTasks(added) };
    });
  }

  async getPlan(id: string): Promise<Plan | undefined> {
    const [row] = await this.db.select().from(plans).where(eq(plans.id, id));
    return row;
  }

  async lastPlan(sessionId: string): Promise<Plan | undefined> {
    const [row] = await this.db
      .select()
      .from(plans)
      .where(eq(plans.sessionId, sessionId))
      .orderBy(desc(plans.createdAt), desc(plans.id))
      .limit(1);
    return row;
  }

  async setPlanStatus(planId: string, status: PlanStatus, feedback?: string): Promise<Plan> {
    // A rejection cancels the plan's pending tasks with it (a transaction); any other status is one statement.
    const atomically = <T>(work: (db: PgDb) => Promise<T>) =>
      status === 'rejected' ? this.ctx.transaction(work) : work(this.db);
    const updated = await atomically(async (db) => {
      const now = this.now();
      const [plan] = await db
        .update(plans)
        .set({ status, updatedAt: now, ...(feedback === undefined ? {} : { feedback }) })
        .where(and(eq(plans.id, planId), inArray(plans.status, [...PLAN_STATUS_FROM[status]])))
        .returning();
      if (plan !== undefined && status === 'rejected')
        await db
          .update(tasks)
          .set({ status: 'cancelled', updatedAt: now })
          .where(and(eq(tasks.planId, planId), eq(tasks.status, 'pending')));
      return plan;
    });
    if (updated !== undefined) return updated;
    const current = await this.getPlan(planId);
    throw planStatusRefusal(current, planId, status);
  }

  async unfinishedPlans(sessionId?: string): Promise<Plan[]> {
    return this.db
      .select()
      .from(plans)
      .where(
        and(sessionId === undefined ? undefined : eq(plans.sessionId, sessionId), unfinishedPlan(this.db)),
      )
      .orderBy(desc(plans.createdAt), desc(plans.id));
  }

  async planTasks(planId: string): Promise<PlanTask[]> {
    const rows = await this.db
      .select()
      .from(tasks)
      .where(eq(tasks.planId, planId))
      .orderBy(asc(tasks.sequence));
    const edges = await this.db
      .select({ taskId: taskDependencies.taskId, key: dependency.key })
      .from(taskDependencies)
      .innerJoin(tasks, eq(tasks.id, taskDependencies.taskId))
      .innerJoin(dependency, eq(dependency.id, taskDependencies.dependsOnId))
      .where(eq(tasks.planId, planId));
    return rows.map((row) => ({
      ...row,
      dependsOn: edges.flatMap((edge) => (edge.taskId === row.id && edge.key !== null ? [edge.key] : [])),
    }));
  }

  /**
   * Takes the lock of the task's queue before the task's row: a hand-off locks in the order a
   * claim does (queue, then rows), so two workers handing off in one queue cannot deadlock.
   */
  private async lockQueueOf(id: string): Promise<void> {
    const task = await this.get(id);
    if (task !== undefined) await lockQueue(this.db, task.queue);
  }

  /** The in-progress tasks of a queue (normally none or one). */
  private async inProgress(queue: string): Promise<{ id: string; leaseExpiresAt: number | null }[]> {
    return this.db
      .select({ id: tasks.id, leaseExpiresAt: tasks.leaseExpiresAt })
      .from(tasks)
      .where(and(eq(tasks.queue, queue), eq(tasks.status, 'in_progress')));
  }

  /**
   * claimNext's work inside the caller's transaction: the queue's lock, its expired leases
   * released, then the lowest-sequence runnable task unless one is in progress under a live lease.
   */
  private async claimWithin(
    queue: string,
    options: { owner: string; leaseMs: number; afterSequence?: number },
    now: number,
  ): Promise<Task | undefined> {
    const db = this.db;
    await lockQueue(db, queue);
    const running = await this.inProgress(queue);
    if (running.some((task) => task.leaseExpiresAt !== null && task.leaseExpiresAt <= now)) {
      await db
        .update(tasks)
        .set({ status: 'pending', ...RELEASED, updatedAt: now })
        .where(and(eq(tasks.queue, queue), eq(tasks.status, 'in_progress'), lte(tasks.leaseExpiresAt, now)));
    }
    if (running.some((task) => task.leaseExpiresAt === null || task.leaseExpiresAt > now)) return undefined;
    const unmet = db
      .select({ id: dependency.id })
      .from(taskDependencies)
      .innerJoin(dependency, eq(dependency.id, taskDependencies.dependsOnId))
      .where(
        and(
          eq(taskDependencies.taskId, tasks.id),
          notInArray(dependency.status, [...SATISFIED_DEPENDENCY_STATUSES]),
        ),
      );
    // SKIP LOCKED: a row another transaction is changing right now (a cancel, a delete) is passed
    // over instead of waited for; claimers of one queue are already in line on its lock.
    const [next] = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(
        and(
          eq(tasks.queue, queue),
          eq(tasks.status, 'pending'),
          gt(tasks.sequence, options.afterSequence ?? 0),
          notExists(unmet),
        ),
      )
      .orderBy(asc(tasks.sequence))
      .limit(1)
      .for('update', { skipLocked: true, of: tasks });
    if (next === undefined) return undefined;
    return this.change('start', {
      id: next.id,
      now,
      leaseOwner: options.owner,
      leaseExpiresAt: leaseExpiry(now, options.leaseMs),
    });
  }

  private async claimAfter(ended: Task, options: HandOffOptions, now: number): Promise<Task | undefined> {
    if (options.queue !== undefined && options.queue !== ended.queue) {
      throw new TaskStoreError(
        `Cannot hand off task ${ended.id} to the queue ${options.queue}: the task is of the queue ${ended.queue}.`,
        { id: ended.id, status: 'in_progress' },
      );
    }
    return this.claimWithin(ended.queue, options, now);
  }

  /** Inserts a task at the end of its queue, inside the caller's transaction (holding the queue's lock). */
  private async insertTask(input: AddTaskInput, now: number): Promise<Task> {
    const db = this.db;
    const queue = input.queue ?? DEFAULT_QUEUE;
    const dependsOn = [...new Set(input.dependsOn ?? [])];
    for (const dependsOnId of dependsOn) {
      if ((await this.get(dependsOnId)) === undefined) {
        throw new TaskStoreError(
          `Cannot add task "${input.title}": it depends on ${dependsOnId}, which does not exist.`,
          {
            id: dependsOnId,
          },
        );
      }
    }
    await lockQueue(db, queue);
    const [last] = await db
      .select({ last: max(tasks.sequence) })
      .from(tasks)
      .where(eq(tasks.queue, queue));
    const [task] = await db
      .insert(tasks)
      .values({
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
        status: 'pending',
        sequence: (last?.last ?? 0) + 1,
        createdAt: now,
        updatedAt: now,
      })
      .returning(TASK_COLUMNS_ANNOUNCED);
    if (task === undefined) throw new Error('The task was not stored.');
    if (dependsOn.length > 0)
      await db
        .insert(taskDependencies)
        .values(dependsOn.map((dependsOnId) => ({ taskId: task.id, dependsOnId })));
    return withoutNotice(task);
  }

  /**
   * One conditional UPDATE; when it matches nothing, the task is read to say why. Every change
   * but a start announces its queue (a task ended, went back, or left the way of others), in the
   * same statement.
   */
  private async change(change: TaskChange, values: ChangeValues): Promise<Task> {
    const update = this.db
      .update(tasks)
      .set({ ...changeSet(change, values), updatedAt: values.now })
      .where(
        and(eq(tasks.id, values.id), inArray(tasks.status, [...TASK_CHANGE_FROM[change]]), heldBy(values)),
      );
    const [updated] =
      change === 'start'
        ? await update.returning(TASK_COLUMNS)
        : (await update.returning(TASK_COLUMNS_ANNOUNCED)).map(withoutNotice);
    if (updated === undefined) throw changeRefusal(change, values.id, await this.get(values.id), values);
    return updated;
  }
}
