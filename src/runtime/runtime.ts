import { DEFAULT_MAX_STEPS, type PendingRequest, type RequestAnswer } from '../agent/index.js';
import { loadConfigFile, type TaskweaveConfig } from '../config/config-file.js';
import { resolveModel } from '../config/resolve-model.js';
import { EventBus } from '../events/bus.js';
import { type ImageRecord, MAX_IMAGES_PER_MESSAGE } from '../events/images.js';
import type { ServerEvent } from '../events/registry.js';
import { type ModelPrice, priceOf } from '../model/prices.js';
import type { ResolvedModel } from '../model/types.js';
import { DEFAULT_QUEUE } from '../store/defaults.js';
import type { Store } from '../store/ports.js';
import type { Task } from '../store/rows.js';
import { TaskStoreError } from '../store/store-errors.js';
import type { ApprovalMode } from '../tools/approval.js';
import type { LanguageServerSettings } from '../tools/lsp/index.js';
import type { McpServerConfig } from '../tools/mcp/index.js';
import { Workspace } from '../tools/workspace/index.js';
import { takeImage } from '../util/image-intake.js';
import { titleOf } from '../util/title.js';
import { DEFAULT_ISOLATION } from '../work/isolation.js';
import { DEFAULT_WORKTREE_COPY, DEFAULT_WORKTREE_SHARE } from '../work/worktree-setup.js';
import { WorktreesAhead } from '../work/worktrees-ahead.js';
import { AnswerWatch } from './answers/answer-watch.js';
import { type GivenAnswerResult, giveAnswer } from './answers/give-answer.js';
import { latestWaitingSession, type WaitingSession, waitingFor } from './answers/waiting-session.js';
import { BackgroundBook } from './books/background-book.js';
import { CheckpointBook, DEFAULT_CHECKPOINT_KEEP_DAYS } from './books/checkpoint-book.js';
import { SessionBook } from './books/session-book.js';
import { TaskBoard } from './books/task-board.js';
import type { CommandGoal } from './custom-commands/command-goal.js';
import { customCommandGoal } from './custom-commands/command-line.js';
import { type LoadedCommands, loadCustomCommands } from './custom-commands/load-commands.js';
import { checkDatabaseOrigin, type ForeignDatabase } from './setup/database-origin.js';
import { RuntimeInputError } from './setup/errors.js';
import { openWorkspaceStore, type StoreLocation } from './setup/open-store.js';
import type { RunSettings } from './setup/run-settings.js';
import { RuntimeSafety } from './setup/runtime-safety.js';
import { refuseNul } from './setup/stored-input.js';
import { loadSubagents, type SubagentSetup } from './setup/subagents.js';
import { newWorkerId } from './setup/worker-identity.js';
import { subscribeToSession } from './subscription.js';
import { continueWaiting, type WaitingReply } from './worker/continue-waiting.js';
import { type LeaseTerms, leaseFrom, leaseTerms } from './worker/lease-terms.js';
import { LiveRuns } from './worker/live-runs.js';
import { NoticeBoard } from './worker/notices.js';
import type { QueueTaskResult } from './worker/queue-task-result.js';
import {
  awaitQueuedGoal,
  QueuedGoalFollower,
  type QueuedGoalOutcome,
  queuedSuffix,
  waitingInQueue,
} from './worker/queued-goal.js';
import { QueuedModels } from './worker/queued-models.js';
import {
  encodeQueuedSettings,
  type GoalSettings,
  type QueuedSettings,
  queuedSettingsOf,
} from './worker/queued-settings.js';
import { releaseDeadWorkers } from './worker/release-dead-workers.js';
import { closeStoppedGoal, type ResumeOutcome, resumeSession, stoppedGoalOf } from './worker/resume.js';
import { RunFactory } from './worker/run-factory.js';
import { StopRequest } from './worker/stop-request.js';
import { runSubmittedGoal, type SubmitOutcome } from './worker/submitted-goal.js';
import { type WorkOptions, type WorkOutcome, workQueue } from './worker/work-queue.js';
import type { WorkerDeps } from './worker/worker-deps.js';

export type { GoalSettings } from './worker/queued-settings.js';

/** An image taken in: its record, its stored size in bytes, and its own size when it was scaled down. */
export interface TakenImageRecord {
  record: ImageRecord;
  size: number;
  scaledFrom?: { width: number; height: number; bytes: number };
}
export type { SubmitOutcome } from './worker/submitted-goal.js';
export type { WorkOutcome } from './worker/work-queue.js';

/** Where the runtime works and which model it runs. */
export interface RuntimeOptions extends StoreLocation, Omit<RunSettings, 'maxSteps'> {
  /** `provider:model`; resolved with the environment and the config file when left out. */
  model?: string;
  baseUrl?: string;
  /**
   * A model object to run instead of resolving `model` (benches and tests that drive the runtime
   * in-process with a model of their own); the config file still applies to the rest.
   */
  languageModel?: ResolvedModel;
  /** The step budget; the config file's `maxSteps` or DEFAULT_MAX_STEPS when left out. */
  maxSteps?: number;
  /** The environment (process.env when left out): read once, by `Runtime.open`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Make a database created for another folder (copied or cloned here) this workspace's own, so
   * that the work queued in it runs (see database-origin.ts); without it that work is left.
   */
  trustDatabase?: boolean;
  /**
   * MCP servers to connect besides the config file's (an editor hands its own over ACP); a name
   * the config also has is this one. They go through the same approval rules.
   */
  mcpServers?: Record<string, McpServerConfig>;
  /**
   * `--allow-queued-scripts`: a goal queued with a `script:` model other than this process's
   * own runs here (tests, demos); without it such a goal fails (see queued-model-trust.ts).
   */
  allowQueuedScripts?: boolean;
  /** `false` turns language-server diagnostics and navigation off ; the config's `lsp` otherwise. */
  lsp?: boolean;
  /** `false`: no `delegate` tool (no subagents), as eval's `no-delegate` ablation. */
  subagents?: boolean;
}

/** What became of a submitted goal. */
export type Submission =
  /** `afterSeq`: the session's last event before the goal was queued (waitForTurn follows it from there). */
  | {
      kind: 'queued';
      task: Task;
      position: number;
      running?: Task;
      afterSeq: number;
      /** Queued for the workers of its queue (`forWorkers`): this process only follows it. */
      forWorkers?: boolean;
      /** Its session was made for it (none was named): cancelled before it ran, the session is removed. */
      newSession?: boolean;
    }
  /** `afterSeq`: the session's last event before the goal was queued (its events follow it). */
  | { kind: 'started'; task: Task; sessionId: string; afterSeq: number; done: Promise<SubmitOutcome> };

/** What a runtime is made of, as `Runtime.open` found and resolved it. */
interface RuntimeParts {
  workspace: Workspace;
  store: Store;
  databasePath: string;
  model: ResolvedModel;
  /** The --base-url the model was given, when one was. */
  baseUrl?: string;
  settings: RunSettings;
  safety: RuntimeSafety;
  mcpServers: Record<string, McpServerConfig>;
  /** The database came from another folder: the work queued in it is left (see database-origin.ts). */
  foreign: ForeignDatabase | undefined;
  env: NodeJS.ProcessEnv;
  leases: LeaseTerms;
  /** Checkpoints of sessions idle longer than this many days are pruned when the runtime closes. */
  checkpointKeepDays: number;
  /** How many background commands each session may run at once, when the config says. */
  backgroundMax?: number;
  /** Goals queued with a script model other than this process's own may run here. */
  allowQueuedScripts: boolean;
  /** The language servers' settings; off when undefined. */
  lsp: LanguageServerSettings | undefined;
  /** The agents delegate may start; no delegate tool when undefined. */
  subagents: SubagentSetup | undefined;
}

/**
 * The one door to runs. Every front end (the CLI, the server) opens a workspace here and goes
 * through it: submit a goal through the queue, interrupt, cancel, resume, drain the queue,
 * follow a session's events, answer requests, stop runs, read sessions and tasks. The queue
 * worker (worker/) gets its own dependencies from here, never the door itself.
 */
export class Runtime {
  /** Every event this process logs, as it is logged (the `subscribe` method follows one session). */
  readonly bus = new EventBus();
  readonly tasks: TaskBoard;
  readonly sessions: SessionBook;
  /** The sessions' checkpoints, and undo, redo and rewind. */
  readonly checkpoints: CheckpointBook;
  /** Each session's background commands in this process (run_command `background: true`). */
  readonly background: BackgroundBook;
  readonly workspace: Workspace;
  readonly store: Store;
  readonly databasePath: string;
  readonly model: ResolvedModel;
  readonly settings: RunSettings;
  readonly safety: RuntimeSafety;
  readonly mcpServers: Record<string, McpServerConfig>;
  /** The runs going on in this process: answers and stops reach them here. */
  private readonly live: LiveRuns;
  private readonly notices = new NoticeBoard();
  private readonly stopRequest = new StopRequest();
  /** What the queue worker works with. */
  private readonly worker: WorkerDeps;
  /** The worktrees this runtime's runs make ahead of their goals (a plan waiting for approval). */
  readonly worktreesAhead = new WorktreesAhead();
  /** Goals submitted in this process that are still running (with the queue work after them). */
  private readonly inFlight = new Set<Promise<SubmitOutcome>>();
  private foreign: ForeignDatabase | undefined;
  private readonly baseUrl: string | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly checkpointKeepDays: number;

  private constructor(parts: RuntimeParts) {
    const { workspace, store } = parts;
    this.workspace = workspace;
    this.store = store;
    this.databasePath = parts.databasePath;
    this.model = parts.model;
    this.settings = parts.settings;
    this.safety = parts.safety;
    this.mcpServers = parts.mcpServers;
    this.foreign = parts.foreign;
    this.baseUrl = parts.baseUrl;
    this.env = parts.env;
    this.checkpointKeepDays = parts.checkpointKeepDays;
    this.tasks = new TaskBoard(store);
    this.sessions = new SessionBook(store);
    this.background = new BackgroundBook({ store, bus: this.bus });
    if (parts.backgroundMax !== undefined) this.background.max = parts.backgroundMax;
    this.checkpoints = new CheckpointBook(store, this.sessions, workspace.root, (event) =>
      this.bus.publish(event),
    );
    this.live = new LiveRuns(new AnswerWatch(store, newWorkerId()));
    const runs = new RunFactory({
      store,
      bus: this.bus,
      workspace,
      model: this.model,
      ...(this.baseUrl === undefined ? {} : { baseUrl: this.baseUrl }),
      settings: this.settings,
      safety: this.safety,
      mcpServers: this.mcpServers,
      lsp: parts.lsp,
      subagents: parts.subagents,
      env: this.env,
      background: this.background,
      models: new QueuedModels({
        cwd: workspace.root,
        env: this.env,
        ownModel: this.model.id,
        ...(this.baseUrl === undefined ? {} : { ownBaseUrl: this.baseUrl }),
        allowScripts: parts.allowQueuedScripts,
      }),
      live: this.live,
      stop: this.stopRequest,
      notices: this.notices,
      worktreesAhead: this.worktreesAhead,
    });
    this.worker = {
      store,
      bus: this.bus,
      runs,
      notices: this.notices,
      leases: parts.leases,
      stop: this.stopRequest,
    };
  }

  /**
   * Opens the workspace and its store and resolves the model; bad configuration throws before
   * anything runs. The environment is read here, once, and handed down as values.
   */
  static async open(options: RuntimeOptions): Promise<Runtime> {
    // The model first: bad configuration fails before anything is written to the workspace.
    const opened = await Workspace.open(options.cwd);
    const env = options.env ?? process.env;
    const leases = leaseTerms(leaseFrom(env.TASKWEAVE_LEASE_MS));
    const { config, ...model } = options.languageModel
      ? await givenModel(options.languageModel, { cwd: opened.root, env })
      : await resolveModel({ model: options.model, baseUrl: options.baseUrl, cwd: opened.root, env });
    const safety = await RuntimeSafety.resolve({ choices: options, config, env });
    const { workspace, store, databasePath, shared } = await openWorkspaceStore(
      { ...options, env },
      { create: true, workspace: opened },
    );
    const foreign = shared
      ? undefined
      : await checkDatabaseOrigin(store, { workspaceRoot: workspace.root, adopt: options.trustDatabase });
    return new Runtime({
      workspace,
      store,
      databasePath,
      model,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      settings: runSettingsOf(options, config),
      safety,
      mcpServers: { ...config.mcp, ...options.mcpServers },
      foreign,
      env,
      leases,
      checkpointKeepDays: config.checkpoints?.keepDays ?? DEFAULT_CHECKPOINT_KEEP_DAYS,
      ...(config.background?.max === undefined ? {} : { backgroundMax: config.background.max }),
      allowQueuedScripts: options.allowQueuedScripts === true,
      lsp: options.lsp === false || config.lsp === false ? undefined : (config.lsp ?? {}),
      subagents:
        options.subagents === false || config.subagents === false
          ? undefined
          : await loadSubagents({ workspaceRoot: workspace.root, env, model, config }),
    });
  }

  /**
   * Where the database says it was created, when that is not this workspace (copied or cloned
   * here): the work queued in it is left until trustDatabase. Undefined for the workspace's own.
   */
  get foreignDatabase(): ForeignDatabase | undefined {
    return this.foreign;
  }

  /**
   * Makes a database from elsewhere this workspace's (the user said so): recorded as created
   * here, the settings its tasks were queued with dropped; its queued work runs from now on.
   */
  async trustDatabase(): Promise<void> {
    if (this.foreign === undefined) return;
    await checkDatabaseOrigin(this.store, { workspaceRoot: this.workspace.root, adopt: true });
    this.foreign = undefined;
  }

  /** The model's price in US dollars per million tokens (prices.ts), when known. */
  get price(): ModelPrice | undefined {
    return this.model.price;
  }

  /** When tool calls are asked now. */
  get approvalMode(): ApprovalMode {
    return this.safety.approval.mode;
  }

  /** Switches the approval mode; runs going on apply it from their next tool call. */
  setApprovalMode(mode: ApprovalMode): void {
    this.safety.setApprovalMode(mode);
  }

  /**
   * Changes how the next runs go (an interactive session's /plan and /loop); a run already going
   * keeps its settings.
   */
  configure(change: Partial<Pick<RunSettings, 'plan' | 'loop' | 'maxSteps'>>): void {
    Object.assign(this.settings, change);
  }

  /**
   * The custom commands of the workspace and the user (Markdown files, see load-commands.ts),
   * read afresh each time; `reserved` are the front end's built-in names, which win.
   */
  customCommands(reserved: readonly string[] = []): Promise<LoadedCommands> {
    return loadCustomCommands({ workspaceRoot: this.workspace.root, env: this.env, reserved });
  }

  /**
   * The goal and settings a typed `/name args` starts when it names a custom command (submit
   * them); undefined when it names none. Refused (RuntimeInputError) when its file is broken or
   * it asks for an approval mode looser than the current one.
   */
  customCommandGoal(line: string, reserved: readonly string[] = []): Promise<CommandGoal | undefined> {
    return customCommandGoal({
      line,
      workspaceRoot: this.workspace.root,
      env: this.env,
      sessionApproval: this.safety.approval.mode,
      reserved,
    });
  }

  /** The user asked this process to stop: runs stop at their next phase boundary, workers end. */
  get stopRequested(): boolean {
    return this.stopRequest.requested;
  }

  /** Listens to notices (a task went back to the queue, the next queued task starts…). */
  onNotice(listener: (text: string) => void): () => void {
    return this.notices.listen(listener);
  }

  /** Tells the notices' listeners something no run owns. */
  notice(text: string): void {
    this.notices.notice(text);
  }

  /** The settings a goal submitted here is queued with (whichever process runs it runs it with them). */
  queuedSettings(goal: GoalSettings = {}): QueuedSettings {
    return queuedSettingsOf(
      {
        model: this.model,
        ...(this.baseUrl === undefined ? {} : { baseUrl: this.baseUrl }),
        settings: this.settings,
        safety: this.safety,
      },
      goal,
    );
  }

  /**
   * Takes in an image for the model (image-intake.ts: its type from its bytes, refused past 20 MB,
   * scaled down past 2000 px or 5 MB) and stores it by its hash; the record names it in a goal's
   * `images`. Throws ImageIntakeError for an input it refuses.
   */
  async takeImage(bytes: Uint8Array): Promise<TakenImageRecord> {
    const taken = await takeImage(bytes);
    const record: ImageRecord = {
      hash: taken.hash,
      media_type: taken.media_type,
      width: taken.width,
      height: taken.height,
    };
    await this.store.images.put({ record, bytes: taken.bytes });
    return {
      record,
      size: taken.bytes.byteLength,
      ...(taken.scaledFrom ? { scaledFrom: taken.scaledFrom } : {}),
    };
  }

  /** A stored image (its record and bytes), or undefined for an unknown hash. */
  image(hash: string): Promise<{ record: ImageRecord; bytes: Uint8Array } | undefined> {
    return this.store.images.get(hash);
  }

  /**
   * The records of a goal's images: at most MAX_IMAGES_PER_MESSAGE, each stored, and the model
   * must see images (a clear refusal naming it, before any request).
   */
  private async goalImages(hashes: readonly string[]): Promise<ImageRecord[]> {
    if (hashes.length === 0) return [];
    if (hashes.length > MAX_IMAGES_PER_MESSAGE)
      throw new RuntimeInputError(
        `${hashes.length} images go with this message; at most ${MAX_IMAGES_PER_MESSAGE} may.`,
      );
    if (this.model.vision === false)
      throw new RuntimeInputError(
        `The model ${this.model.id} does not see images: use a model that does, or leave the images out (a model that does see them can be named in the config's "vision").`,
      );
    const records = await this.store.images.records(hashes);
    const unknown = hashes.filter((hash) => !records.some((record) => record.hash === hash));
    if (unknown.length > 0)
      throw new RuntimeInputError(
        `No image is stored with the hash ${unknown.join(', ')}: upload it first.`,
        {
          code: 'not_found',
        },
      );
    return records;
  }

  /**
   * Submits a goal through the workspace's queue (in a new session, or continuing `sessionId`).
   * When no other task runs it starts at once (`done` settles when it and the work queued
   * behind it meanwhile have run); otherwise it waits in the queue and the result says where.
   * With `interrupt`, the running task is cancelled first (its worker stops it at its next step).
   * `settings` (step limit, loop, plan mode) apply to this goal when this process runs it.
   * `queue`: the queue it joins (DEFAULT_QUEUE; a repository's with `--repo`); `forWorkers`: it
   * is only queued, for the workers of that queue (a shared store's repository queue: the
   * workers run it in their clones), never started in this process.
   */
  async submit(
    goal: string,
    options: {
      sessionId?: string;
      interrupt?: boolean;
      settings?: GoalSettings;
      queue?: string;
      forWorkers?: boolean;
    } = {},
  ): Promise<Submission> {
    const text = goal.trim();
    if (text === '') throw new RuntimeInputError('The goal is empty: say what taskweave should do.');
    refuseNul(text, 'the goal');
    const { tasks } = this.store;
    const images = await this.goalImages(options.settings?.images ?? []);
    const sessionId = await this.sessionFor(text, options.sessionId);
    const newSession = options.sessionId === undefined;
    const owner = newWorkerId();
    const afterSeq = await this.store.sessions.lastSeq(sessionId);
    const queue = options.queue ?? DEFAULT_QUEUE;
    if (!newSession) await closeStoppedGoal(this.worker, sessionId);
    await releaseDeadWorkers(tasks, queue);
    if (options.interrupt) await this.interruptRunning(queue);
    // The goal carries the settings it was made with: whichever process runs it runs it with them.
    const runSettings = encodeQueuedSettings({
      ...this.queuedSettings(options.settings),
      ...(images.length > 0 ? { images } : {}),
    });
    const input = { title: titleOf(text), description: text, sessionId, queue, runSettings };
    const { task, started } = options.forWorkers
      ? { task: await tasks.add(input), started: false }
      : await tasks.addAndStartIfIdle(input, { owner, leaseMs: this.worker.leases.leaseMs });
    if (!started) {
      const active = await tasks.listActive(task.queue);
      const running = active.find((other) => other.status === 'in_progress');
      const position = active.findIndex((other) => other.id === task.id) + 1;
      return {
        kind: 'queued',
        task,
        position,
        afterSeq,
        ...(running ? { running } : {}),
        ...(options.forWorkers ? { forWorkers: true } : {}),
        ...(newSession ? { newSession: true } : {}),
      };
    }
    return { kind: 'started', task, sessionId, afterSeq, done: this.runStarted(task, owner) };
  }

  /**
   * Starts an empty session (idle, no run yet) that goals are then submitted into: an editor's
   * session exists before its first prompt. Resolves with its id.
   */
  async newSession(title: string): Promise<string> {
    const session = await this.store.sessions.createSession({
      title: titleOf(title),
      goal: '',
      workspace: this.workspace.root,
      model: this.model.id,
    });
    return session.id;
  }

  /** The session a goal goes into: the one named (it must exist), else a new one. */
  private async sessionFor(goal: string, sessionId: string | undefined): Promise<string> {
    const { sessions } = this.store;
    if (sessionId === undefined)
      return (
        await sessions.createSession({
          title: titleOf(goal),
          goal,
          workspace: this.workspace.root,
          model: this.model.id,
        })
      ).id;
    if ((await sessions.getSession(sessionId)) === undefined)
      throw new RuntimeInputError(`There is no session with the id ${sessionId}.`, { code: 'not_found' });
    return sessionId;
  }

  /**
   * Waits for a queued goal's turn (see awaitQueuedGoal): its events go to `onEvent` while
   * another process runs it; it runs here when the queue is free first.
   */
  async waitForTurn(
    submission: Extract<Submission, { kind: 'queued' }>,
    onEvent: (event: ServerEvent) => void,
  ): Promise<QueuedGoalOutcome<SubmitOutcome>> {
    const { task, afterSeq } = submission;
    const follower = new QueuedGoalFollower(afterSeq, onEvent);
    const unsubscribe = this.subscribe(task.sessionId ?? '', afterSeq, follower.follow);
    let turn: Awaited<ReturnType<typeof awaitQueuedGoal>>;
    try {
      turn = await awaitQueuedGoal(this.worker, { task, follower, runHere: !submission.forWorkers });
    } finally {
      unsubscribe();
    }
    if (turn.kind === 'followed') {
      // Cancelled before it ran: the session made for it holds nothing and is not left behind.
      if (
        turn.cancelled &&
        submission.newSession &&
        (await this.store.sessions.removeIfEmpty(turn.sessionId))
      )
        return { ...turn, sessionRemoved: true };
      return turn;
    }
    return { kind: 'ran_here', outcome: await this.runStarted(turn.task, turn.owner) };
  }

  /** Runs a goal whose task this process has started, with the queue work after it. */
  private runStarted(task: Task, owner: string): Promise<SubmitOutcome> {
    const afterSequence = this.foreign?.queuedBefore.get(task.queue);
    const done = runSubmittedGoal(this.worker, {
      task,
      owner,
      ...(afterSequence === undefined ? {} : { afterSequence }),
    });
    this.inFlight.add(done);
    const forget = () => this.inFlight.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** Cancels the running task of a queue; its worker stops it at the next step boundary. */
  private async interruptRunning(queue: string): Promise<void> {
    const { tasks } = this.store;
    const running = (await tasks.listActive(queue)).find((other) => other.status === 'in_progress');
    if (!running) return;
    await tasks.cancel(running.id);
    const waiting = await waitingInQueue(tasks, queue);
    this.notice(
      `Stopping the running task "${running.title}" at its next step boundary; your goal runs next${queuedSuffix(waiting)}.`,
    );
  }

  /** Drains the queue, one task after another; with `watch`, waits for more until stopped. */
  work(options: Omit<WorkOptions, 'foreign' | 'databasePath'> = {}): Promise<WorkOutcome> {
    return workQueue(this.worker, { ...options, foreign: this.foreign, databasePath: this.databasePath });
  }

  /**
   * Whether `resume` has work to continue in the session: an unfinished plan, a run left running,
   * or a goal the user stopped.
   */
  async hasWorkToResume(sessionId: string): Promise<boolean> {
    if ((await this.store.plans.unfinishedPlans(sessionId)).length > 0) return true;
    if ((await this.store.sessions.runs(sessionId)).some((run) => run.status === 'running')) return true;
    return (await stoppedGoalOf(this.worker, sessionId)) !== undefined;
  }

  /** Continues what a crash or a kill left unfinished (see resumeSession). */
  resume(options: { session?: string } = {}): Promise<ResumeOutcome> {
    return resumeSession(this.worker, { ...options, book: this.sessions });
  }

  /**
   * The session that waits for the user (its last run ended with needs_input): the one named (id,
   * unique prefix or "last"; undefined when it does not wait), else the latest such session
   * unless a session with interrupted work is more recent.
   */
  async waitingSession(reference?: string): Promise<WaitingSession | undefined> {
    if (reference === undefined) return latestWaitingSession(this.store);
    return waitingFor(this.store, await this.sessions.find(reference));
  }

  /** Continues a session that waits for the user with their reply (see continueWaiting). */
  continueWaiting(waiting: WaitingSession, reply: WaitingReply): Promise<QueueTaskResult> {
    return continueWaiting(this.worker, waiting, reply);
  }

  /**
   * Answers a request (a question, an approval, a plan, a failure decision) of a run in this
   * process or in any other sharing the store (see giveAnswer): the first answer counts, a second
   * is refused as already answered.
   */
  answer(requestId: string, answer: RequestAnswer): Promise<GivenAnswerResult> {
    return giveAnswer(
      { store: this.store, localControl: (id) => this.live.waitingFor(id) },
      requestId,
      answer,
    );
  }

  /** The requests waiting for an answer in this process, with their sessions. */
  pendingRequests(): (PendingRequest & { sessionId: string })[] {
    return this.live.pending();
  }

  /** Whether any run goes on in this process (an idle worker has none). */
  get anyRunning(): boolean {
    return this.live.any;
  }

  /** Whether a run of the session goes on in this process. */
  isRunning(sessionId: string): boolean {
    return this.live.has(sessionId);
  }

  /**
   * Stops the runs of one session at their next phase boundary (tools and model calls in flight
   * are aborted); without a session, every run of this process, and the workers end.
   */
  stop(sessionId?: string): void {
    if (sessionId === undefined) this.stopRequest.request();
    this.live.stop(sessionId);
  }

  /**
   * Stops a session wherever it runs: its run in this process at the next phase boundary, its
   * goal running in another process by marking the goal's task stopped (that worker stops the run
   * at its next step boundary; `resume` continues it, as after a stop here), and its goals still
   * waiting in the queue by cancelling them. Resolves with whether anything was stopped.
   */
  async stopSession(sessionId: string): Promise<boolean> {
    let stopped = this.live.has(sessionId);
    this.stop(sessionId);
    for (const task of await this.store.tasks.listActive(DEFAULT_QUEUE)) {
      if (task.sessionId !== sessionId) continue;
      if (task.status === 'in_progress' && stopped) continue; // this process stops it itself
      await this.stopTask(task);
      stopped = true;
    }
    return stopped;
  }

  /** Stops one goal of the queue run elsewhere (stopped, for `resume`) or cancels one still waiting. */
  private async stopTask(task: Task): Promise<void> {
    const { tasks } = this.store;
    if (task.status !== 'in_progress') {
      await tasks.cancel(task.id);
      return;
    }
    await tasks
      .stop(task.id, 'stopped: the user stopped it from another process')
      .catch(async (error: unknown) => {
        // It ended meanwhile (completed, failed, or already stopped): nothing is left to stop.
        if (!(error instanceof TaskStoreError)) throw error;
      });
  }

  /**
   * Follows a session's events after `afterSeq`: replayed from the log, then live, also those
   * another process writes to the same database; each once, in seq order. Returns the unsubscribe.
   */
  subscribe(sessionId: string, afterSeq: number, listener: (event: ServerEvent) => void): () => void {
    return subscribeToSession({
      sessionId,
      afterSeq,
      log: this.store.sessions,
      bus: this.bus,
      signals: this.store.signals,
      listener,
    });
  }

  /**
   * Stops a background command of a session run by this process (resolves once it ended);
   * an unknown id, or one that already ended, is a RuntimeInputError saying so.
   */
  async stopBackgroundCommand(sessionId: string, commandId: string, by: string): Promise<void> {
    const commands = this.background.existing(sessionId);
    const command = commands?.get(commandId);
    if (command === undefined)
      throw new RuntimeInputError(
        `Session ${sessionId} has no background command ${commandId} in this process (it may run in another one, or have ended with it).`,
        { code: 'not_found' },
      );
    if (!command.running)
      throw new RuntimeInputError(`The background command ${commandId} has already ended.`, {
        code: 'conflict',
      });
    await commands?.stop(command, by);
  }

  /** Resolves when the goals submitted in this process have finished (stop them first to hurry it). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    // The sessions end: their background commands are stopped (but those the user kept).
    await this.background.close();
    // Checkpoints of sessions idle longer than checkpoints.keepDays go (one query when none are).
    if (!this.foreign) await this.checkpoints.prune(this.checkpointKeepDays).catch(() => {});
    await this.live.close();
    await this.store.close();
  }
}

/** The settings the runtime's runs go with: the options given, the config file's, the defaults. */
function runSettingsOf(options: RuntimeOptions, config: TaskweaveConfig): RunSettings {
  return {
    ...options,
    maxSteps: options.maxSteps ?? config.maxSteps ?? DEFAULT_MAX_STEPS,
    budget: options.budget ?? config.budget?.session,
    isolation: options.isolation ?? config.isolation ?? DEFAULT_ISOLATION,
    includeUncommitted: options.includeUncommitted ?? config.fromHead !== true,
    apply: options.apply ?? config.apply !== false,
    applyOffBy: options.apply === false ? '--no-apply' : 'the config\'s "apply": false',
    worktree: {
      setup: config.worktree?.setup,
      share: config.worktree?.share ?? DEFAULT_WORKTREE_SHARE,
      copy: config.worktree?.copy ?? DEFAULT_WORKTREE_COPY,
    },
  };
}

/** A model given as an object (tests, benches), with the config file and, by its name, its price. */
async function givenModel(
  model: ResolvedModel,
  where: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ResolvedModel & { config: TaskweaveConfig }> {
  const { config } = await loadConfigFile(where);
  return { ...model, price: model.price ?? priceOf(model.id, config.prices), config };
}
