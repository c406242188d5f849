import { RuntimeInputError } from '../setup/errors.js';

/** The lease when TASKWEAVE_LEASE_MS does not set another. */
export const DEFAULT_LEASE_MS = 30_000;
/** How often a worker looks at its task (was it cancelled? taken over?) while the agent works on it. */
export const WATCH_INTERVAL_MS = 500;
/** The longest time between two renewals of a lease, however long the lease. */
const MAX_RENEW_EVERY_MS = 10_000;

/**
 * How long a worker's claim on a task lasts and how it keeps it: a dead worker's task returns to
 * the queue after `leaseMs` (another machine takes it over). Every worker of a queue should use
 * the same lease; it is read from the environment once, when the runtime opens.
 */
export interface LeaseTerms {
  /** How long a claim lasts without renewal. */
  leaseMs: number;
  /** How often the lease is renewed while the task runs: a third of it, at most every 10 s. */
  renewEveryMs: number;
  /** How often the worker looks at its task while it runs. */
  watchIntervalMs: number;
}

/** The terms a lease of `leaseMs` gives. */
export function leaseTerms(leaseMs: number = DEFAULT_LEASE_MS): LeaseTerms {
  return {
    leaseMs,
    renewEveryMs: Math.min(MAX_RENEW_EVERY_MS, Math.floor(leaseMs / 3)),
    watchIntervalMs: WATCH_INTERVAL_MS,
  };
}

/** The lease TASKWEAVE_LEASE_MS gives (whole milliseconds, at least 1000), else the default. */
export function leaseFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_LEASE_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1000)
    throw new RuntimeInputError(
      `TASKWEAVE_LEASE_MS must be a whole number of milliseconds, at least 1000 (it is "${value}").`,
    );
  return ms;
}
