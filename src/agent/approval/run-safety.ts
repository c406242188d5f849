import type { HooksConfig } from '../../config/hooks-config.js';
import type { CommandSandbox } from '../../tools/sandbox/index.js';
import type { WebAccess } from '../../tools/web/index.js';
import type { ApprovalSettings } from './approval-gate.js';
import type { SessionApprovals } from './session-approvals.js';

/** What keeps a run safe: when calls are asked, and how commands are confined. */
export interface RunSafety {
  /** Shared with the runtime: a mode switched meanwhile applies to the next call. */
  approval: ApprovalSettings;
  /** The "always" answers of the run's session. */
  remembered: SessionApprovals;
  sandbox: CommandSandbox;
  /** The sandbox was wanted but bubblewrap cannot be used here: commands are asked instead. */
  sandboxMissing: boolean;
  /** The sandbox as the header shows it: a mode, `off`, or `unavailable`. */
  sandboxLabel: string;
  /** Notes shown as the run starts (no bubblewrap here, an MCP server that failed to start). */
  notes?: string[];
  /** The hooks of the user's own config (a workspace config cannot declare any). */
  hooks?: HooksConfig;
  /** What web_fetch may reach beyond public addresses (the user's own config). */
  web?: WebAccess;
}
