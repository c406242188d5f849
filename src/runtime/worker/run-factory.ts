import type { RunAgentOptions, RunSafety } from '../../agent/index.js';
import { Journal, RunControl } from '../../agent/index.js';
import type { EventBus } from '../../events/bus.js';
import type { ImageRecord } from '../../events/images.js';
import type { ResolvedModel } from '../../model/types.js';
import { DEFAULT_PLAN_CONCURRENCY } from '../../plan/scheduler.js';
import type { Store } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { type LanguageServerSettings, LanguageServers } from '../../tools/lsp/index.js';
import type { McpServerConfig } from '../../tools/mcp/index.js';
import { coreTools } from '../../tools/registry.js';
import type { Workspace } from '../../tools/workspace/index.js';
import { DEFAULT_ISOLATION } from '../../work/isolation.js';
import { goalsWithWorktrees, reclaimGoalWorktrees } from '../../work/reclaim-worktrees.js';
import { DEFAULT_WORKTREE_COPY, DEFAULT_WORKTREE_SHARE } from '../../work/worktree-setup.js';
import type { WorktreesAhead } from '../../work/worktrees-ahead.js';
import type { BackgroundBook } from '../books/background-book.js';
import { sessionSpent } from '../books/spending.js';
import type { RunSettings } from '../setup/run-settings.js';
import type { RuntimeSafety } from '../setup/runtime-safety.js';
import type { SubagentSetup } from '../setup/subagents.js';
import { cleanUpAfterCrash } from './crash-cleanup.js';
import type { Lease } from './lease.js';
import type { LiveRuns } from './live-runs.js';
import type { NoticeSink } from './notices.js';
import type { QueuedModels } from './queued-models.js';
import { decodeQueuedSettings, queuedSettingsOf, settingsDifferences } from './queued-settings.js';
import type { StopRequest } from './stop-request.js';

/** The settings, model and safety one run goes with. */
export interface RunChoice {
  settings: RunSettings;
  model: ResolvedModel;
  safety: RunSafety;
  /** The images of the user's message (a queued goal's), sent with its goal. */
  images?: ImageRecord[];
}

/** A run ready to start: the agent's options (its control among them), and its end. */
export interface OpenedRun {
  options: Omit<RunAgentOptions, 'goal'>;
  /** Stops its MCP and language servers, detaches its background commands and forgets its control. */
  end(): Promise<void>;
}

/** What a run factory builds runs from: the runtime's pieces, each given by the runtime. */
export interface RunFactoryOptions {
  store: Store;
  bus: EventBus;
  workspace: Workspace;
  /** This process's model, and its --base-url when it gave one. */
  model: ResolvedModel;
  baseUrl?: string;
  /** This process's settings (changed in place by an interactive session's /plan and /loop). */
  settings: RunSettings;
  safety: RuntimeSafety;
  /** The MCP servers each run starts (the config's `mcp`). */
  mcpServers: Record<string, McpServerConfig>;
  /** The language servers' settings (the config's `lsp`); none start when undefined. */
  lsp: LanguageServerSettings | undefined;
  /** The agents delegate may start, and the notes on agent files not used; no delegate tool when undefined. */
  subagents: SubagentSetup | undefined;
  /** The environment language servers start with (secrets withheld). */
  env: NodeJS.ProcessEnv;
  /** Each session's background commands (they outlive a run, not the process). */
  background: BackgroundBook;
  /** The models of tasks queued with another model. */
  models: QueuedModels;
  /** Where each run's control is registered while it goes on (answers and stops reach it). */
  live: LiveRuns;
  stop: StopRequest;
  notices: NoticeSink;
  /** The worktrees the runtime's runs make ahead of their goals (shared by its runs). */
  worktreesAhead: WorktreesAhead;
}

/**
 * Builds the runs the worker starts: which settings a task runs with, and the agent's options
 * for one run (control, journal, MCP servers, background commands, budget, isolation), tracked
 * while it goes on. Also tidies what a killed process left before its work is taken up again.
 */
export class RunFactory {
  constructor(private readonly pieces: RunFactoryOptions) {}

  /** The workspace runs work in. */
  get workspaceRoot(): string {
    return this.pieces.workspace.root;
  }

  /** This process's model id (a session the worker creates records it). */
  get modelId(): string {
    return this.pieces.model.id;
  }

  /** This process's settings. */
  get settings(): RunSettings {
    return this.pieces.settings;
  }

  /** This process's own settings, model and safety for a run of `sessionId` (the user's own say: resume, a reply). */
  own(sessionId: string): RunChoice {
    const { settings, model, safety } = this.pieces;
    return { settings, model, safety: safety.forSession(sessionId) };
  }

  /**
   * The settings, model and safety a queue task runs with: the ones it was queued with (stored on
   * the task), whichever process runs it; this process's own for work queued without any.
   * Throws when they cannot be honoured here (a model that cannot be built, a value not read).
   */
  async forTask(task: Task, sessionId: string): Promise<RunChoice> {
    const { settings: own, model: ownModel, safety, models, notices } = this.pieces;
    const queued = decodeQueuedSettings(task.runSettings);
    if (queued === undefined) return this.own(sessionId);
    const differences = settingsDifferences(queued, queuedSettingsOf(this.pieces));
    // The process's own model as it is: the same name, and no base URL other than its own.
    const asOwn =
      queued.model === ownModel.id && (queued.baseUrl ?? this.pieces.baseUrl) === this.pieces.baseUrl;
    const model = asOwn ? ownModel : await models.modelFor(queued);
    const runSafety = await safety.forQueuedRun(sessionId, queued);
    if (differences.length > 0)
      notices.notice(
        `▶ "${task.title}" runs with the settings it was queued with: ${differences.join(', ')}`,
      );
    const settings: RunSettings = {
      ...own,
      maxSteps: queued.maxSteps,
      loop: queued.loop,
      plan: queued.plan,
      ...(queued.chat ? { chat: true } : {}),
      approval: queued.approval,
      sandbox: queued.sandbox,
      network: queued.network,
    };
    return { settings, model, safety: runSafety, ...(queued.images ? { images: queued.images } : {}) };
  }

  /**
   * Opens a run in a session with `choice`: its control (stopped at once when the process is
   * stopping), journal, MCP servers and background commands, tracked until `end`. With a
   * `lease`, pushes to a shared repository's remote are fenced like the task's changes in the store.
   */
  async open(sessionId: string, choice: RunChoice, lease?: Lease): Promise<OpenedRun> {
    const { store, bus, workspace, mcpServers, background, live, stop } = this.pieces;
    const { settings, model, safety } = choice;
    const control = new RunControl({ policy: settings.policy, inputTimeoutMs: settings.inputTimeoutMs });
    if (stop.requested) control.stop();
    // The configured MCP servers start with the run and stop when it ends.
    const mcp =
      Object.keys(mcpServers).length === 0 || settings.chat
        ? undefined
        : // The MCP SDK is loaded only when a server is configured.
          await (await import('../../tools/mcp/index.js')).startMcpServers({
            servers: mcpServers,
            workspaceRoot: workspace.root,
          });
    // Language servers start with the run's first source file, and stop when it ends.
    const languageServers =
      this.pieces.lsp === undefined || settings.chat
        ? undefined
        : new LanguageServers(this.pieces.lsp, this.pieces.env);
    const journal = new Journal({ sessionId, store, bus });
    const detachBackground = background.attach(sessionId, journal);
    const subagents = settings.chat ? undefined : this.pieces.subagents;
    const fenced = settings.remote !== undefined && lease?.token !== undefined ? lease : undefined;
    const options: Omit<RunAgentOptions, 'goal'> = {
      model,
      workspace,
      journal,
      store,
      background: background.forSession(sessionId),
      ...(languageServers === undefined ? {} : { languageServers }),
      control,
      safety: {
        ...safety,
        notes: [
          ...(safety.notes ?? []),
          ...(mcp?.failures ?? []),
          ...(mcp?.notes ?? []),
          ...(subagents?.notes ?? []),
        ],
      },
      ...(subagents === undefined ? {} : { subagents: subagents.settings }),
      // A plain chat turn offers the model no tool at all.
      tools: settings.chat ? [] : mcp ? [...coreTools, ...mcp.tools] : undefined,
      ...(settings.chat ? { chatOnly: true } : {}),
      maxSteps: settings.maxSteps,
      concurrency: settings.concurrency,
      onFailure: settings.onFailure,
      protocol: settings.protocol,
      loop: settings.loop,
      taskTracking: settings.taskTracking,
      ...(settings.budget === undefined
        ? {}
        : { budget: { limit: settings.budget, spentBefore: await sessionSpent(store, sessionId) } }),
      isolation: {
        mode: settings.isolation ?? DEFAULT_ISOLATION,
        includeUncommitted: settings.includeUncommitted,
        apply: settings.apply,
        applyOffBy: settings.applyOffBy,
        worktree: settings.worktree ?? { share: DEFAULT_WORKTREE_SHARE, copy: DEFAULT_WORKTREE_COPY },
        ahead: this.pieces.worktreesAhead,
        ...(settings.remote === undefined ? {} : { remote: settings.remote }),
        ...(fenced === undefined ? {} : { claim: fenced }),
      },
    };
    const untrack = live.track(sessionId, control);
    return {
      options,
      end: async () => {
        untrack();
        detachBackground();
        await Promise.all([mcp?.close(), languageServers?.close()]);
      },
    };
  }

  /**
   * The worktrees of the goals `goalIsOver` says nobody will continue (a killed process left them):
   * made idle for the next goals, clean, up to the concurrency, or removed; their branches stay.
   * Returns how many there were.
   */
  async reclaimWorktrees(goalIsOver: (goalId: string) => Promise<boolean>): Promise<number> {
    const { workspace, settings, worktreesAhead } = this.pieces;
    let reclaimed = 0;
    for (const goalId of await goalsWithWorktrees(workspace.root)) {
      if (!(await goalIsOver(goalId))) continue;
      reclaimed += await reclaimGoalWorktrees({
        workspaceRoot: workspace.root,
        goalId,
        setup: settings.worktree ?? { share: DEFAULT_WORKTREE_SHARE, copy: DEFAULT_WORKTREE_COPY },
        ahead: worktreesAhead,
        idleBound: settings.concurrency ?? DEFAULT_PLAN_CONCURRENCY,
      });
    }
    return reclaimed;
  }

  /** Tidies what a killed process left before its work is taken up again (see cleanUpAfterCrash). */
  tidyAfterCrash(): Promise<void> {
    const { workspace, store, bus, notices, background } = this.pieces;
    return cleanUpAfterCrash({ workspace, store, bus, notice: (text) => notices.notice(text), background });
  }
}
