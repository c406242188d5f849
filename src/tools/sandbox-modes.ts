/** How commands are confined: `--sandbox workspace-write|read-only|off`. */
export type SandboxMode = 'workspace-write' | 'read-only' | 'off';

/** The sandbox modes, in the order `--help` lists them. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['workspace-write', 'read-only', 'off'];
