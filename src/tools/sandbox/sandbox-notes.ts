import type { CommandOutcome } from '../process/run-shell-command.js';
import { type CommandSandbox, READ_ONLY_IN_WORKSPACE } from './sandbox.js';

/** What a command prints when it wrote to a read-only place. */
const READ_ONLY_PATTERN = /read-only file system|EROFS/i;
/** What commands print when they cannot reach the network (npm, pip, curl, git, getaddrinfo). */
const NETWORK_PATTERN =
  /ENOTFOUND|EAI_AGAIN|ENETUNREACH|network is unreachable|could not resolve|temporary failure in name resolution|name or service not known|getaddrinfo|failed to connect|connection refused|ECONNREFUSED/i;

/** A note on a command the sandbox stood in the way of: one text for the model, one for the user. */
export interface SandboxNote {
  /** What the model may and may not do about it. */
  forModel: string;
  /** A few words beside the command's line: what happened and the flag that changes it. */
  forUser: string;
}

/**
 * Notes on a failed sandboxed command whose output shows that the sandbox stood in its way:
 * what is read-only, and that the network is off (only the user can turn it on).
 */
export function sandboxNotes(
  outcome: Pick<CommandOutcome, 'stdout' | 'stderr'>,
  sandbox: Extract<CommandSandbox, { kind: 'bwrap' }>,
): SandboxNote[] {
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  const notes: SandboxNote[] = [];
  if (READ_ONLY_PATTERN.test(output)) {
    const writable =
      sandbox.mode === 'workspace-write'
        ? `only the workspace and a private /tmp are writable (not ${READ_ONLY_IN_WORKSPACE.join(', ')})`
        : 'the sandbox is read-only (only a private /tmp is writable)';
    notes.push({
      forModel: `Sandbox: the command ran in taskweave's sandbox, where ${writable}. Work inside the workspace instead; only the user can change the sandbox (--sandbox).`,
      forUser:
        sandbox.mode === 'workspace-write'
          ? 'the sandbox keeps it to the workspace (--sandbox changes that)'
          : 'the sandbox is read-only (--sandbox changes that)',
    });
  }
  if (!sandbox.network && NETWORK_PATTERN.test(output)) {
    notes.push({
      forModel:
        'Sandbox: the command ran without network access. Installing packages or fetching anything needs it: the user can allow it with --network (or "network": true in the config). Tell the user if the task cannot be done without it.',
      forUser: 'no network in the sandbox (--network allows it)',
    });
  }
  return notes;
}
