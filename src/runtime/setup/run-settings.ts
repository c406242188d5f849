import type { LoopName, PlanMode, ProtocolName, RequestPolicy, TaskTracking } from '../../agent/index.js';
import type { ApprovalMode } from '../../tools/approval.js';
import type { SandboxMode } from '../../tools/sandbox-modes.js';
import type { IsolationMode } from '../../work/isolation.js';
import type { CloneRemote } from '../../work/repo-clone.js';
import type { WorktreeSetup } from '../../work/worktree-setup.js';

/** How the runs of a runtime go: the same for every goal it runs. */
export interface RunSettings {
  maxSteps: number;
  plan: PlanMode;
  concurrency?: number;
  /** What a failed task leads to when no one can be asked (used by `policy.failure`). */
  onFailure: 'abort' | 'skip';
  protocol: ProtocolName;
  /** How each step runs: `react`, or `roa` (reason → act → observe). */
  loop?: LoopName;
  inputTimeoutMs?: number;
  /** A plain chat turn: the model is offered no tool (the seed's `agent_mode: false`). */
  chat?: boolean;
  /** Who tracks an approved plan's tasks: the orchestrator (default), or the model alone. */
  taskTracking?: TaskTracking;
  /** Who answers the runs' requests: a front end, or the non-interactive rules. */
  policy: RequestPolicy;
  /** When tool calls are asked; the config's `approval`, else `ask`, when left out. */
  approval?: ApprovalMode;
  /** How commands are confined; the config's `sandbox`, else `workspace-write`, when left out. */
  sandbox?: SandboxMode;
  /** Network access for sandboxed commands; the config's `network`, else off, when left out. */
  network?: boolean;
  /**
   * US dollars a session may spend (`--budget`, else the config's `budget.session`): a run stops
   * at its next step once its session's runs together cost this much. No limit when left out.
   */
  budget?: number;
  /** Where plan tasks work; the config's `isolation`, else `auto`, when left out. */
  isolation?: IsolationMode;
  /**
   * The goal branch starts with the files as they are on disk (the default); false with
   * `--from-head` or the config's `fromHead: true`.
   */
  includeUncommitted?: boolean;
  /**
   * A completed goal's change lands in the user's working tree (the default); false with
   * `--no-apply` or the config's `apply: false`.
   */
  apply?: boolean;
  /** What turned applying off, said at the end of a run (`--no-apply`, `config apply: false`). */
  applyOffBy?: string;
  /** The config's `worktree` (defaults filled in by the runtime). */
  worktree?: WorktreeSetup;
  /**
   * `--repo`: the git remote (its name in taskweave's clone, `origin`) each goal's branches are
   * fetched from before a task starts and pushed to as tasks end; the goal runs in worktrees.
   */
  remote?: CloneRemote;
}
