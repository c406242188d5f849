import type { Style } from './terminal.js';

/** The colour a run's status is shown in: green completed, red failed, cyan running, dim idle. */
export function paintRunStatus(status: string, style: Style): (text: string) => string {
  switch (status) {
    case 'completed':
      return style.green;
    case 'failed':
      return style.red;
    case 'running':
      return style.cyan;
    case 'idle':
      return style.dim;
    default:
      return style.yellow;
  }
}
