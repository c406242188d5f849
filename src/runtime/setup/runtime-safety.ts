import { type ApprovalSettings, type RunSafety, SessionApprovals } from '../../agent/index.js';
import type { TaskweaveConfig } from '../../config/config-file.js';
import type { HooksConfig } from '../../config/hooks-config.js';
import { type ApprovalMode, DEFAULT_APPROVAL_MODE, stricterApproval } from '../../tools/approval.js';
import type { CommandSandbox } from '../../tools/sandbox/index.js';
import { probeSandbox } from '../../tools/sandbox/index.js';
import type { SandboxMode } from '../../tools/sandbox-modes.js';
import type { WebAccess } from '../../tools/web/index.js';

/** The sandbox mode when neither a flag nor the config names one. */
export const DEFAULT_SANDBOX_MODE: SandboxMode = 'workspace-write';

/** The safety choices of the command line (each wins over the config file). */
export interface SafetyChoices {
  approval?: ApprovalMode;
  sandbox?: SandboxMode;
  network?: boolean;
}

/**
 * The safety of a runtime's runs: the approval settings its runs share (switchable while they
 * go on), the sandbox found at start-up, and the "always" answers of each session.
 */
export class RuntimeSafety {
  private unavailableToldOnce = false;
  private readonly sessions = new Map<string, SessionApprovals>();
  private readonly modeListeners = new Set<(mode: ApprovalMode) => void>();

  /** The probe's answer for runs that want a sandbox when this process's is off (probed once, when first needed). */
  private probed: Promise<Awaited<ReturnType<typeof probeSandbox>>> | undefined;

  private constructor(
    readonly approval: ApprovalSettings,
    readonly sandbox: CommandSandbox,
    /** Why the wanted sandbox cannot be used here; undefined when it can, or is off. */
    readonly sandboxUnavailable: string | undefined,
    readonly sandboxLabel: string,
    /** The sandbox mode chosen (by flag, config or default), whether bubblewrap is there or not. */
    readonly sandboxMode: SandboxMode,
    /** Network access chosen for sandboxed commands. */
    readonly networkChoice: boolean,
    private readonly env: NodeJS.ProcessEnv,
    /** The hooks of the user's own config. */
    readonly hooks: HooksConfig | undefined,
    /** What web_fetch may reach beyond public addresses (the user's own config). */
    readonly web: WebAccess | undefined,
  ) {}

  /** Resolves flags over the config over the defaults, and probes bubblewrap unless the sandbox is off. */
  static async resolve(options: {
    choices: SafetyChoices;
    config: TaskweaveConfig;
    env: NodeJS.ProcessEnv;
  }): Promise<RuntimeSafety> {
    const { choices, config } = options;
    const approval: ApprovalSettings = {
      mode: choices.approval ?? config.approval ?? DEFAULT_APPROVAL_MODE,
      allow: config.allow ?? [],
      deny: config.deny ?? [],
    };
    const mode = choices.sandbox ?? config.sandbox ?? DEFAULT_SANDBOX_MODE;
    const network = choices.network ?? config.network ?? false;
    const privateHosts = config.webFetch?.privateHosts;
    const web = privateHosts === undefined ? undefined : { privateHosts };
    const chosen = [mode, network, options.env, config.hooks, web] as const;
    if (mode === 'off') return new RuntimeSafety(approval, { kind: 'none' }, undefined, 'off', ...chosen);
    const found = await probeSandbox(options.env);
    if (!found.available)
      return new RuntimeSafety(approval, { kind: 'none' }, found.reason, 'unavailable', ...chosen);
    const sandbox: CommandSandbox = { kind: 'bwrap', bwrap: found.bwrap, mode, network };
    return new RuntimeSafety(approval, sandbox, undefined, mode, ...chosen);
  }

  /** Switches the approval mode of every run (from its next call) and tells the listeners. */
  setApprovalMode(mode: ApprovalMode): void {
    this.approval.mode = mode;
    for (const listener of this.modeListeners) listener(mode);
  }

  /** Listens to approval mode switches (a server tells its clients); returns the way to stop. */
  onApprovalModeChange(listener: (mode: ApprovalMode) => void): () => void {
    this.modeListeners.add(listener);
    return () => this.modeListeners.delete(listener);
  }

  /** Whether sandboxed commands may reach the network. */
  get network(): boolean {
    return this.sandbox.kind === 'bwrap' && this.sandbox.network;
  }

  /**
   * The safety of a run queued with settings of its own (another terminal's, see
   * queued-settings.ts): its approval mode, or this process's when that is stricter now (fixed
   * for the run unless it is this process's: a later switch does not loosen it), its sandbox
   * mode and network, the session's "always" answers.
   */
  async forQueuedRun(
    sessionId: string,
    wanted: { approval: ApprovalMode; sandbox: SandboxMode; network: boolean },
  ): Promise<RunSafety> {
    const own = this.forSession(sessionId);
    // The stricter of the goal's mode and this process's now: a mode switched to a stricter one
    // after the goal was queued (the web UI's switch) still applies to it.
    const mode = stricterApproval(wanted.approval, this.approval.mode);
    const approval = mode === this.approval.mode ? own.approval : { ...this.approval, mode };
    if (wanted.sandbox === this.sandboxMode && wanted.network === this.networkChoice)
      return { ...own, approval };
    if (wanted.sandbox === 'off')
      return { ...own, approval, sandbox: { kind: 'none' }, sandboxMissing: false, sandboxLabel: 'off' };
    this.probed ??= probeSandbox(this.env);
    const found =
      this.sandbox.kind === 'bwrap'
        ? { available: true as const, bwrap: this.sandbox.bwrap }
        : await this.probed;
    if (!found.available) {
      const notes = [
        ...(own.notes ?? []),
        `Commands cannot be sandboxed: ${found.reason}. Each command is asked before it runs, and runs unconfined.`,
      ];
      return {
        ...own,
        approval,
        sandbox: { kind: 'none' },
        sandboxMissing: true,
        sandboxLabel: 'unavailable',
        notes,
      };
    }
    const sandbox: CommandSandbox = {
      kind: 'bwrap',
      bwrap: found.bwrap,
      mode: wanted.sandbox,
      network: wanted.network,
    };
    return { ...own, approval, sandbox, sandboxMissing: false, sandboxLabel: wanted.sandbox };
  }

  /** The safety of the next run of a session; the first run of the process is told when the sandbox is missing. */
  forSession(sessionId: string): RunSafety {
    let remembered = this.sessions.get(sessionId);
    if (!remembered) {
      remembered = new SessionApprovals();
      this.sessions.set(sessionId, remembered);
    }
    const notes: string[] = [];
    if (this.sandboxUnavailable !== undefined && !this.unavailableToldOnce) {
      this.unavailableToldOnce = true;
      notes.push(
        `Commands cannot be sandboxed: ${this.sandboxUnavailable}. Each command is asked before it runs (also with --approval auto), and runs unconfined; --sandbox off runs them without this fallback.`,
      );
    }
    return {
      approval: this.approval,
      remembered,
      sandbox: this.sandbox,
      sandboxMissing: this.sandboxUnavailable !== undefined,
      sandboxLabel: this.sandboxLabel,
      notes,
      ...(this.hooks !== undefined ? { hooks: this.hooks } : {}),
      ...(this.web !== undefined ? { web: this.web } : {}),
    };
  }
}
