import {
  and,
  asc,
  eq,
  exists,
  gt,
  inArray,
  lte,
  max,
  notExists,
  notInArray,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias, type SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import {
  FINISHED_TASK_STATUSES,
  SATISFIED_DEPENDENCY_STATUSES,
  TASK_CHANGE_FROM,
  type TaskChange,
} from '../task-changes.js';
import type { StoreDrizzle } from './database.js';
import { lazyStatements } from './lazy-statements.js';
import { plans, type TaskStatus, taskDependencies, tasks } from './schema.js';

/*
 * The task store's queries, built and prepared once per store, values bound through
 * placeholders. Building a drizzle query and compiling its SQL costs far more than running it:
 * the CPU time of add → claimNext → complete went from ~700 µs to ~90 µs once prepared.
 */

export type { TaskChange } from '../task-changes.js';

/**
 * The values a change statement binds; each statement uses the ones it needs. A type, not an
 * interface, so that it fits drizzle's `Record<string, unknown>` of placeholder values.
 */
export type ChangeValues = {
  id: string;
  now: number;
  /** The result summary or the reason, for the changes that record one. */
  text?: string | null;
  /** The lease a start takes (null for none). */
  leaseOwner?: string | null;
  leaseExpiresAt?: number | null;
  /** The worker that must still hold the task, for the owner-checked variants. */
  owner?: string;
  /** The attempt the worker claimed (its fencing token), for the attempt-checked variants. */
  attempt?: number;
};

const placeholder = (name: keyof ChangeValues) => sql`${sql.placeholder(name)}`;
const RELEASED = { leaseOwner: null, leaseExpiresAt: null } as const;

/** Each change: the statuses it may start from (task-changes.ts) and the columns it sets. */
export const TASK_CHANGES: Record<
  TaskChange,
  { from: readonly TaskStatus[]; set: SQLiteUpdateSetSource<typeof tasks> }
> = {
  start: {
    from: TASK_CHANGE_FROM.start,
    set: {
      status: 'in_progress',
      attempts: sql`${tasks.attempts} + 1`,
      leaseOwner: placeholder('leaseOwner'),
      leaseExpiresAt: placeholder('leaseExpiresAt'),
    },
  },
  complete: {
    from: TASK_CHANGE_FROM.complete,
    set: { status: 'completed', resultSummary: placeholder('text'), ...RELEASED },
  },
  fail: {
    from: TASK_CHANGE_FROM.fail,
    set: { status: 'failed', failReason: placeholder('text'), ...RELEASED },
  },
  block: {
    from: TASK_CHANGE_FROM.block,
    set: { status: 'blocked', failReason: placeholder('text'), ...RELEASED },
  },
  skip: { from: TASK_CHANGE_FROM.skip, set: { status: 'skipped', ...RELEASED } },
  cancel: { from: TASK_CHANGE_FROM.cancel, set: { status: 'cancelled', ...RELEASED } },
  stop: {
    from: TASK_CHANGE_FROM.stop,
    set: { status: 'stopped', failReason: placeholder('text'), ...RELEASED },
  },
  'reset to pending': {
    from: TASK_CHANGE_FROM['reset to pending'],
    set: { status: 'pending', failReason: null, ...RELEASED },
  },
  reopen: { from: TASK_CHANGE_FROM.reopen, set: { status: 'pending', failReason: null, ...RELEASED } },
};

export { FINISHED_TASK_STATUSES };

/**
 * An approved plan with a task still to finish (pending, in progress, failed or blocked): the
 * work a resumed run picks up. `plans` is the outer query's row.
 */
export function unfinishedPlan(orm: StoreDrizzle): SQL | undefined {
  return and(
    eq(plans.status, 'approved'),
    exists(
      orm
        .select({ id: tasks.id })
        .from(tasks)
        .where(and(eq(tasks.planId, plans.id), notInArray(tasks.status, [...FINISHED_TASK_STATUSES]))),
    ),
  );
}

/** The tasks table again, as the task a dependency row points to. */
export const dependency = alias(tasks, 'dependency');

/**
 * The task is in progress and `owner` still holds it. An expired lease makes a task free to be
 * taken (releaseExpiredLeases, takeOver), but until someone does, its worker still holds it: a
 * worker paused longer than its lease (a laptop lid, a debugger) goes on when it wakes up.
 */
function heldBy(owner: Placeholder | undefined, attempt?: Placeholder): SQL | undefined {
  return and(
    eq(tasks.status, 'in_progress'),
    owner === undefined ? undefined : eq(tasks.leaseOwner, owner),
    // The fencing token: a claim or takeover since the worker's own counted one more attempt.
    attempt === undefined ? undefined : eq(tasks.attempts, attempt),
  );
}

/** Which holder checks a change statement makes (see HolderCheck). */
export interface HolderChecks {
  owner: boolean;
  attempt: boolean;
}

/** Prepares the statement of one change, with or without the holder's checks. */
function prepareChange(orm: StoreDrizzle, change: TaskChange, checks: HolderChecks) {
  const { from, set } = TASK_CHANGES[change];
  return orm
    .update(tasks)
    .set({ ...set, updatedAt: placeholder('now') })
    .where(
      and(
        eq(tasks.id, sql.placeholder('id')),
        inArray(tasks.status, [...from]),
        checks.owner || checks.attempt
          ? heldBy(
              checks.owner ? sql.placeholder('owner') : undefined,
              checks.attempt ? sql.placeholder('attempt') : undefined,
            )
          : undefined,
      ),
    )
    .returning()
    .prepare();
}

/** Every prepared query of the task store. */
export function prepareTaskQueries(orm: StoreDrizzle) {
  const id = sql.placeholder('id');
  const queue = sql.placeholder('queue');
  const now = sql.placeholder('now');
  const unmetDependencies = orm
    .select({ id: dependency.id })
    .from(taskDependencies)
    .innerJoin(dependency, eq(dependency.id, taskDependencies.dependsOnId))
    // `tasks.id` here is the outer query's row.
    .where(
      and(
        eq(taskDependencies.taskId, tasks.id),
        notInArray(dependency.status, [...SATISFIED_DEPENDENCY_STATUSES]),
      ),
    );
  const changes = new Map<string, ReturnType<typeof prepareChange>>();
  const statements = lazyStatements({
    getById: () => orm.select().from(tasks).where(eq(tasks.id, id)).prepare(),
    lastSequence: () =>
      orm
        .select({ last: max(tasks.sequence) })
        .from(tasks)
        .where(eq(tasks.queue, queue))
        .prepare(),
    insertTask: () =>
      orm
        .insert(tasks)
        .values({
          id,
          sessionId: sql.placeholder('sessionId'),
          planId: sql.placeholder('planId'),
          parentId: sql.placeholder('parentId'),
          queue,
          key: sql.placeholder('key'),
          title: sql.placeholder('title'),
          description: sql.placeholder('description'),
          checkCommand: sql.placeholder('checkCommand'),
          runSettings: sql.placeholder('runSettings'),
          status: 'pending',
          sequence: sql.placeholder('sequence'),
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .prepare(),
    insertDependency: () =>
      orm
        .insert(taskDependencies)
        .values({ taskId: id, dependsOnId: sql.placeholder('dependsOnId') })
        .prepare(),
    releaseExpiredInQueue: () =>
      orm
        .update(tasks)
        .set({ status: 'pending', ...RELEASED, updatedAt: sql`${now}` })
        .where(and(eq(tasks.queue, queue), eq(tasks.status, 'in_progress'), lte(tasks.leaseExpiresAt, now)))
        .prepare(),
    /** Normally none or one: the queue runs one task at a time unless a scheduler starts several. */
    inProgress: () =>
      orm
        .select({ id: tasks.id, leaseExpiresAt: tasks.leaseExpiresAt })
        .from(tasks)
        .where(and(eq(tasks.queue, queue), eq(tasks.status, 'in_progress')))
        .prepare(),
    nextClaimable: () =>
      orm
        .select({ id: tasks.id })
        .from(tasks)
        .where(
          and(
            eq(tasks.queue, queue),
            eq(tasks.status, 'pending'),
            gt(tasks.sequence, sql.placeholder('afterSequence')),
            notExists(unmetDependencies),
          ),
        )
        .orderBy(asc(tasks.sequence))
        .limit(1)
        .prepare(),
    renewLease: () =>
      orm
        .update(tasks)
        .set({ leaseExpiresAt: sql`${sql.placeholder('leaseExpiresAt')}`, updatedAt: sql`${now}` })
        .where(and(eq(tasks.id, id), heldBy(sql.placeholder('owner'))))
        .returning({ id: tasks.id })
        .prepare(),
    renewFencedLease: () =>
      orm
        .update(tasks)
        .set({ leaseExpiresAt: sql`${sql.placeholder('leaseExpiresAt')}`, updatedAt: sql`${now}` })
        .where(and(eq(tasks.id, id), heldBy(sql.placeholder('owner'), sql.placeholder('attempt'))))
        .returning({ id: tasks.id })
        .prepare(),
  });
  return Object.assign(statements, {
    /** The statement of a change, prepared on first use. */
    change(change: TaskChange, checks: HolderChecks = { owner: false, attempt: false }) {
      const key = `${change}:${checks.owner}:${checks.attempt}`;
      let statement = changes.get(key);
      if (statement === undefined) {
        statement = prepareChange(orm, change, checks);
        changes.set(key, statement);
      }
      return statement;
    },
  });
}
