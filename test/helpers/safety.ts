import type { ApprovalSettings } from '../../src/agent/approval/approval-gate.js';
import type { RunSafety } from '../../src/agent/approval/run-safety.js';
import { SessionApprovals } from '../../src/agent/approval/session-approvals.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';

/**
 * The safety of a run for tests about something else: every call runs unasked (`auto`) and
 * commands are not sandboxed, as with `--approval auto --sandbox off`.
 */
export function runsEverything(): RunSafety {
  return safetyOf({ mode: 'auto', allow: [], deny: [] }, { kind: 'none' });
}

/** A run's safety from its approval settings and sandbox. */
export function safetyOf(
  approval: ApprovalSettings,
  sandbox: CommandSandbox,
  options: { sandboxMissing?: boolean } = {},
): RunSafety {
  return {
    approval,
    remembered: new SessionApprovals(),
    sandbox,
    sandboxMissing: options.sandboxMissing ?? false,
    sandboxLabel: sandbox.kind === 'bwrap' ? sandbox.mode : options.sandboxMissing ? 'unavailable' : 'off',
  };
}
