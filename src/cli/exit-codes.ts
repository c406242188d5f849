import type { RunStatus } from '../events/registry.js';

/** Exit codes of protocol.md. */
export const EXIT = {
  completed: 0,
  failed: 1,
  usage: 2,
  stopped: 3,
  needsInput: 4,
  /** `run --no-wait`: the request was only queued behind a task that runs in the workspace. */
  queued: 5,
} as const;

/** The exit code a run's status maps to. */
export function exitCodeFor(status: RunStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.completed;
    case 'failed':
      return EXIT.failed;
    case 'stopped':
    case 'max_steps':
      return EXIT.stopped;
    case 'needs_input':
      return EXIT.needsInput;
  }
}
