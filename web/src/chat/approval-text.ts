import type { ApprovalItem } from '../../../src/events/session-view.js';

/**
 * What the approval gate (src/agent/approval/approval-gate.ts) gives as the display of a call it
 * asked about and did not let run, other than a denial: each named for what happened.
 */
const NOT_RUN: Record<string, string> = {
  stopped: 'the run stopped before you answered',
  'needs approval': 'nobody could approve it here',
  'check failed': 'taskweave failed while checking it',
};

/**
 * What became of a call asked for approval, named for what happened: waiting, not run (and
 * why), denied (with the reason given), or allowed (and how it went: `exit 0`, `timed out…`).
 */
export function approvalText(item: ApprovalItem): string {
  const what = item.check ? "The task's check" : item.name === 'run_command' ? 'Command' : item.name;
  if (!item.settled) return `${what} waits for your approval.`;
  if (item.outcome === undefined) return `${what} not run: the run ended before you answered.`;
  const notRun = NOT_RUN[item.outcome];
  if (notRun) return `${what} not run: ${notRun}.`;
  if (/^denied\b/.test(item.outcome)) return `${what} ${item.outcome}`;
  return `${what} allowed · ${item.outcome}`;
}
