import type { RunStatus } from '../../events/registry.js';

/** How one queue task ended. */
export interface QueueTaskResult {
  sessionId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  /** The task was cancelled (or its lease lost) while it ran: the worker stopped it. */
  cancelled: boolean;
  /** Another worker took the task over while this one ran it (this one was paused past its lease). */
  leaseLost?: boolean;
  /**
   * The attempt this worker held the task under (its fencing token): closing the task carries it,
   * so a worker that lost the task meanwhile cannot close it.
   */
  attempt?: number;
}
