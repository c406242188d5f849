import type { PlanStatus, TaskStatus } from './vocabulary.js';

/*
 * The refusals of the store's ports, the same from every implementation (SQLite, PostgreSQL):
 * the runtime tells them apart by class.
 */

/** A task id that does not exist, or a change its current status does not allow. */
export class TaskStoreError extends Error {
  override name = 'TaskStoreError';
  /** The task (or plan, or plan key) the error is about. */
  readonly id: string;
  /** The status it had when the change was refused, when it exists. */
  readonly status: TaskStatus | PlanStatus | undefined;

  constructor(message: string, details: { id: string; status?: TaskStatus | PlanStatus }) {
    super(message);
    this.id = details.id;
    this.status = details.status;
  }
}

/** An unknown session or run. */
export class SessionStoreError extends Error {
  override name = 'SessionStoreError';
}

/** The task named does not exist. */
export function unknownTask(id: string): TaskStoreError {
  return new TaskStoreError(`There is no task with the id ${id}.`, { id });
}

/** The session named does not exist. */
export function unknownSession(id: string): SessionStoreError {
  return new SessionStoreError(`There is no session with the id ${id}.`);
}

/** The database holds migrations this version of taskweave does not know: it was written by a newer one. */
export class StoreVersionError extends Error {
  override name = 'StoreVersionError';
}

/** The database file was deleted, replaced or overwritten while it was open. */
export class StoreGoneError extends Error {
  override name = 'StoreGoneError';
}

/** A read-only database that would have to be changed (upgraded) before it can be read. */
export class StoreReadOnlyError extends Error {
  override name = 'StoreReadOnlyError';
}

/** The database stayed locked by another process for longer than the busy timeout. */
export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
}
