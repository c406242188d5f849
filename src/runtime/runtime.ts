import { DEFAULT_MAX_STEPS } from '../agent/run/run-agent.js';
import type { RunControl } from '../agent/state/control.js';
import type { PendingRequest, RequestAnswer } from '../agent/state/requests.js';
import { loadConfigFile, type TaskweaveConfig } from '../config/config-file.js';
import { resolveModel } from '../config/resolve-model.js';
import { EventBus } from '../events/bus.js';
import type { ServerEvent } from '../events/registry.js';
import { type ModelPrice, priceOf } from '../model/prices.js';
import type { ResolvedModel } from '../model/types.js';
import { DEFAULT_QUEUE } from '../store/defaults.js';
import type { Store } from '../store/ports.js';
import type { Task } from '../store/rows.js';
import { StoreGoneError } from '../store/store-errors.js';
import { type ApprovalMode, stricterApproval } from '../tools/approval.js';
import type { McpServerConfig } from '../tools/mcp/mcp-config.js';
import { Workspace } from '../tools/workspace/workspace.js';
import { titleOf } from '../util/title.js';
import { DEFAULT_ISOLATION } from '../work/isolation.js';
import { DEFAULT_WORKTREE_COPY, DEFAULT_WORKTREE_SHARE } from '../work/worktree-setup.js';
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
import { checkDatabaseOrigin, describeOrigin, type ForeignDatabase } from './setup/database-origin.js';
import { RuntimeInputError } from './setup/errors.js';
import { openWorkspaceStore, type StoreLocation } from './setup/open-store.js';
import type { RunSettings } from './setup/run-settings.js';
import { RuntimeSafety } from './setup/runtime-safety.js';
import { subscribeToSession } from './subscription.js';
import { closeGoalTask, closeGoalTaskAndClaimNext } from './worker/close-goal-task.js';
import { continueWaiting, type WaitingReply } from './worker/continue-waiting.js';
import { watchQueue } from './worker/queue-wake.js';
import {
  type DrainSummary,
  drainQueue,
  LEASE_MS,
  type QueueTaskResult,
  releaseDeadWorkers,
  runQueueTask,
  type WorkerContext,
} from './worker/queue-worker.js';
import {
  awaitQueuedGoal,
  type QueuedGoalOutcome,
  queuedSuffix,
  waitingInQueue,
} from './worker/queued-goal.js';
import { encodeQueuedSettings, type QueuedSettings } from './worker/queued-settings.js';
import { type ResumeOutcome, resumeSession } from './worker/resume.js';
import { newWorkerId } from './worker/worker-identity.js';

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
  env?: NodeJS.ProcessEnv;
  /**
   * Make a database created for another folder (copied or cloned here) this workspace's own, so
   * that the work queued in it runs (see database-origin.ts); without it that work is left.
   */
  trustDatabase?: boolean;
}

/** What a submitter may choose for one goal; the rest comes from the runtime's settings. */
export type GoalSettings = Partial<Pick<RunSettings, 'maxSteps' | 'loop' | 'plan' | 'chat' | 'approval'>>;

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
    }
  | { kind: 'started'; task: Task; sessionId: string; done: Promise<SubmitOutcome> };

/** How a submitted goal ended, and the queue work this process ran after it. */
export interface SubmitOutcome {
  result: QueueTaskResult;
  /** Work queued while the goal ran, run after it here. */
  drained?: DrainSummary;
}

/** What `work` did. */
export type WorkOutcome =
  | { kind: 'empty' }
  | { kind: 'busy'; running: Task }
  | { kind: 'drained'; summary: DrainSummary };

/**
 * The one door to runs. Every front end (the CLI, the server) opens a workspace here and goes
 * through it: submit a goal through the queue, interrupt, cancel, resume, drain the queue,
 * follow a session's events, answer requests, stop runs, read sessions and tasks. The queue
 * worker, leases, worker identity and hand-off live behind it.
 */
export class Runtime implements WorkerContext {
  /** Every event this process logs, as it is logged (the `subscribe` method follows one session). */
  readonly bus = new EventBus();
  readonly tasks: TaskBoard;
  readonly sessions: SessionBook;
  /** The sessions' checkpoints, and undo, redo and rewind. */
  readonly checkpoints: CheckpointBook;
  /** Each session's background commands in this process (run_command `background: true`). */
  readonly background: BackgroundBook;
  private readonly controls = new Map<string, Set<RunControl>>();
  /** Brings answers given in other processes to the runs of this one that wait for them. */
  private readonly answerWatch: AnswerWatch;
  /** Models of goals queued with another model than this process's, by `model baseUrl`. */
  private readonly otherModels = new Map<string, Promise<ResolvedModel>>();
  /** Goals submitted in this process that are still running (with the queue work after them). */
  private readonly inFlight = new Set<Promise<SubmitOutcome>>();
  private readonly noticeListeners = new Set<(text: string) => void>();
  private stopping = false;
  /** Checkpoints of sessions idle longer than this many days are pruned when the runtime closes. */
  private checkpointKeepDays = DEFAULT_CHECKPOINT_KEEP_DAYS;

  private constructor(
    readonly workspace: Workspace,
    readonly store: Store,
    readonly databasePath: string,
    readonly model: ResolvedModel,
    readonly settings: RunSettings,
    readonly safety: RuntimeSafety,
    readonly mcpServers: Record<string, McpServerConfig>,
    /** The database came from another folder: the work queued in it is left (see database-origin.ts). */
    private foreign: ForeignDatabase | undefined,
    private readonly options: RuntimeOptions,
  ) {
    this.tasks = new TaskBoard(store);
    this.answerWatch = new AnswerWatch(store, newWorkerId());
    this.sessions = new SessionBook(store);
    this.background = new BackgroundBook({ store, bus: this.bus });
    this.checkpoints = new CheckpointBook(store, this.sessions, workspace.root, (event) =>
      this.bus.publish(event),
    );
  }

  /** Opens the workspace and its store and resolves the model; bad configuration throws before anything runs. */
  static async open(options: RuntimeOptions): Promise<Runtime> {
    // The model first: bad configuration fails before anything is written to the workspace.
    const opened = await Workspace.open(options.cwd);
    const env = options.env ?? process.env;
    const { config, ...model } = options.languageModel
      ? await givenModel(options.languageModel, { cwd: opened.root, env })
      : await resolveModel({ model: options.model, baseUrl: options.baseUrl, cwd: opened.root, env });
    const safety = await RuntimeSafety.resolve({ choices: options, config, env });
    const { workspace, store, databasePath, shared } = await openWorkspaceStore(
      { ...options, env },
      { create: true, workspace: opened },
    );
    const maxSteps = options.maxSteps ?? config.maxSteps ?? DEFAULT_MAX_STEPS;
    const foreign = shared
      ? undefined
      : await checkDatabaseOrigin(store, { workspaceRoot: workspace.root, adopt: options.trustDatabase });
    const runtime = new Runtime(
      workspace,
      store,
      databasePath,
      model,
      {
        ...options,
        maxSteps,
        budget: options.budget ?? config.budget?.session,
        isolation: options.isolation ?? config.isolation ?? DEFAULT_ISOLATION,
        worktree: {
          setup: config.worktree?.setup,
          share: config.worktree?.share ?? DEFAULT_WORKTREE_SHARE,
          copy: config.worktree?.copy ?? DEFAULT_WORKTREE_COPY,
        },
      },
      safety,
      config.mcp ?? {},
      foreign,
      { ...options, env },
    );
    runtime.checkpointKeepDays = config.checkpoints?.keepDays ?? DEFAULT_CHECKPOINT_KEEP_DAYS;
    runtime.background.max = config.background?.max ?? runtime.background.max;
    return runtime;
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
    return loadCustomCommands({
      workspaceRoot: this.workspace.root,
      env: this.options.env ?? process.env,
      reserved,
    });
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
      env: this.options.env ?? process.env,
      sessionApproval: this.safety.approval.mode,
      reserved,
    });
  }

  /** The user asked this process to stop: runs stop at their next phase boundary, workers end. */
  get stopRequested(): boolean {
    return this.stopping;
  }

  /** Listens to notices (a task went back to the queue, the next queued task starts…). */
  onNotice(listener: (text: string) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  queuedSettings(goal: GoalSettings = {}): QueuedSettings {
    const loop = goal.loop ?? this.settings.loop;
    return {
      model: this.model.id,
      ...(this.options.baseUrl === undefined ? {} : { baseUrl: this.options.baseUrl }),
      // A goal may ask for a stricter mode than the runtime's (a custom command's), never a looser one.
      approval: goal.approval
        ? stricterApproval(goal.approval, this.safety.approval.mode)
        : this.safety.approval.mode,
      sandbox: this.safety.sandboxMode,
      network: this.safety.networkChoice,
      maxSteps: goal.maxSteps ?? this.settings.maxSteps,
      ...(loop === undefined ? {} : { loop }),
      plan: goal.plan ?? this.settings.plan ?? 'auto',
      ...(goal.chat ? { chat: true } : {}),
    };
  }

  modelFor(settings: QueuedSettings): Promise<ResolvedModel> {
    const key = `${settings.model} ${settings.baseUrl ?? ''}`;
    let model = this.otherModels.get(key);
    if (model === undefined) {
      model = resolveModel({
        model: settings.model,
        baseUrl: settings.baseUrl,
        cwd: this.workspace.root,
        env: this.options.env ?? process.env,
      });
      this.otherModels.set(key, model);
    }
    return model;
  }

  notice(text: string): void {
    for (const listener of this.noticeListeners) listener(text);
  }

  track(sessionId: string, control: RunControl): () => void {
    let set = this.controls.get(sessionId);
    if (!set) {
      set = new Set();
      this.controls.set(sessionId, set);
    }
    set.add(control);
    const unwatch = this.answerWatch.add(control);
    return () => {
      unwatch();
      set.delete(control);
      if (set.size === 0) this.controls.delete(sessionId);
    };
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
    const { sessions, tasks } = this.store;
    const title = titleOf(text);
    if (options.sessionId !== undefined && (await sessions.getSession(options.sessionId)) === undefined)
      throw new RuntimeInputError(`There is no session with the id ${options.sessionId}.`, {
        code: 'not_found',
      });
    const sessionId =
      options.sessionId ??
      (
        await sessions.createSession({
          title,
          goal: text,
          workspace: this.workspace.root,
          model: this.model.id,
        })
      ).id;
    const owner = newWorkerId();
    const afterSeq = await sessions.lastSeq(sessionId);
    const queue = options.queue ?? DEFAULT_QUEUE;
    await releaseDeadWorkers(this, queue);
    if (options.interrupt) await this.interruptRunning(queue);
    // The goal carries the settings it was made with: whichever process runs it runs it with them.
    const runSettings = encodeQueuedSettings(this.queuedSettings(options.settings));
    const input = { title, description: text, sessionId, queue, runSettings };
    const { task, started } = options.forWorkers
      ? { task: await tasks.add(input), started: false }
      : await tasks.addAndStartIfIdle(input, { owner, leaseMs: LEASE_MS });
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
      };
    }
    return { kind: 'started', task, sessionId, done: this.runStarted(task, owner) };
  }

  /**
   * Waits for a queued goal's turn (see awaitQueuedGoal): its events go to `onEvent` while
   * another process runs it; it runs here when the queue is free first.
   */
  waitForTurn(
    submission: Extract<Submission, { kind: 'queued' }>,
    onEvent: (event: ServerEvent) => void,
  ): Promise<QueuedGoalOutcome<SubmitOutcome>> {
    return awaitQueuedGoal(this, {
      task: submission.task,
      afterSeq: submission.afterSeq,
      onEvent,
      runHere: !submission.forWorkers,
    });
  }

  /** Runs a goal whose task this process has started, with the queue work after it. */
  runStarted(task: Task, owner: string): Promise<SubmitOutcome> {
    const done = this.runSubmitted(task, owner);
    this.inFlight.add(done);
    const forget = () => this.inFlight.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async runSubmitted(task: Task, owner: string): Promise<SubmitOutcome> {
    const result = await runQueueTask(this, task, owner);
    if (result.cancelled) return { result };
    try {
      return await this.afterSubmitted(task, owner, result);
    } catch (error) {
      // The database file went away under the run, which ended as failed saying so: there is
      // nothing left to close the task in.
      if (error instanceof StoreGoneError && result.status === 'failed') return { result };
      throw error;
    }
  }

  /** Closes a goal's task as its run ended and works the queue behind it. */
  private async afterSubmitted(task: Task, owner: string, result: QueueTaskResult): Promise<SubmitOutcome> {
    const { tasks } = this.store;
    if (this.stopRequested) {
      // A goal the user stopped is not left in the queue for a later worker to pick up.
      await tasks.cancel(task.id);
      return { result };
    }
    // Work queued while this goal ran runs after it, here (older queued work is left to `work`).
    const olderWaiting = (await tasks.listActive(task.queue)).some((other) => other.sequence < task.sequence);
    const afterSequence = this.foreignDatabase?.queuedBefore.get(task.queue);
    const handOff = {
      id: task.id,
      owner,
      queue: task.queue,
      leaseMs: LEASE_MS,
      afterSequence,
      answers: { store: this.store, sessionId: result.sessionId },
    };
    if (olderWaiting) {
      await closeGoalTask(tasks, handOff, result);
      return { result };
    }
    const next = await closeGoalTaskAndClaimNext(tasks, handOff, result);
    if (!next) return { result };
    const drained = await drainQueue(this, {
      owner,
      queue: task.queue,
      afterSequence,
      first: next,
      announce: (queued) =>
        void waitingInQueue(this, task.queue).then((waiting) =>
          this.notice(
            `▶ next in the queue (added while the last task ran): ${queued.title}${queuedSuffix(waiting)}`,
          ),
        ),
    });
    return { result, drained };
  }

  /** Cancels the running task of a queue; its worker stops it at the next step boundary. */
  private async interruptRunning(queue: string): Promise<void> {
    const running = (await this.store.tasks.listActive(queue)).find(
      (other) => other.status === 'in_progress',
    );
    if (!running) return;
    await this.store.tasks.cancel(running.id);
    const waiting = await waitingInQueue(this, queue);
    this.notice(
      `Stopping the running task "${running.title}" at its next step boundary; your goal runs next${queuedSuffix(waiting)}.`,
    );
  }

  /** Drains the queue, one task after another; with `watch`, waits for more until stopped. */
  async work(
    options: {
      queue?: string;
      watch?: boolean;
      pollMs?: number;
      /** Without watch: stop after this many tasks (a worker of several queues takes them in turn). */
      maxTasks?: number;
    } = {},
  ): Promise<WorkOutcome> {
    const queue = options.queue ?? DEFAULT_QUEUE;
    const { tasks } = this.store;
    const owner = newWorkerId();
    const released = await releaseDeadWorkers(this, queue);
    if (released > 0) {
      this.notice(
        `${released} task${released === 1 ? '' : 's'} whose worker stopped without finishing went back to the queue.`,
      );
    }
    // The work a database from another folder came with is left until the user makes it theirs.
    const afterSequence = this.foreignDatabase?.queuedBefore.get(queue);
    if (this.foreignDatabase !== undefined && afterSequence !== undefined) {
      const left = (await tasks.listActive(queue)).filter((task) => task.sequence <= afterSequence).length;
      this.notice(
        `The database ${this.databasePath} was not created for this workspace (${describeOrigin(this.foreignDatabase)}): the ${left} task${left === 1 ? '' : 's'} queued in it before now ${left === 1 ? 'is' : 'are'} not run. If it is yours, run again with --trust-db to make it this workspace's and work them.`,
      );
    }
    const claim = { queue, owner, leaseMs: LEASE_MS, afterSequence };
    const waitForTask = async (): Promise<Task | undefined> => {
      this.notice('The queue is empty; waiting for tasks (Ctrl-C ends).');
      // Woken by the store when a task of the queue changes; the poll catches expired leases and a stop.
      const wake = await watchQueue(this.store, queue);
      try {
        while (!this.stopRequested) {
          await releaseDeadWorkers(this, queue);
          const task = await tasks.claimNext(claim);
          if (task) return task;
          await wake.wait(options.pollMs ?? 500);
        }
        return undefined;
      } finally {
        await wake.close();
      }
    };
    let first = await tasks.claimNext(claim);
    if (!first && options.watch) first = await waitForTask();
    if (!first) {
      const running = (await tasks.listActive(queue)).find((task) => task.status === 'in_progress');
      return running ? { kind: 'busy', running } : { kind: 'empty' };
    }
    const announce = async (task: Task, index: number) => {
      const waiting = (await tasks.listActive(queue)).filter(
        (candidate) => candidate.status === 'pending',
      ).length;
      this.notice(`▶ task ${index} of ${index + waiting}: ${task.title}`);
    };
    const summary: DrainSummary = { completed: 0, failed: 0, stopped: false };
    let next: Task | undefined = first;
    while (next) {
      const more = await drainQueue(this, {
        owner,
        queue,
        afterSequence,
        maxTasks: options.watch ? undefined : options.maxTasks,
        first: next,
        announce: (t, i) => void announce(t, i),
      });
      summary.completed += more.completed;
      summary.failed += more.failed;
      summary.stopped = more.stopped;
      next = options.watch && !summary.stopped ? await waitForTask() : undefined;
    }
    return { kind: 'drained', summary };
  }

  /** Continues what a crash or a kill left unfinished (see resumeSession). */
  resume(options: { session?: string } = {}): Promise<ResumeOutcome> {
    return resumeSession(this, options);
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
    return continueWaiting(this, waiting, reply);
  }

  /**
   * Answers a request (a question, an approval, a plan, a failure decision) of a run in this
   * process or in any other sharing the store (see giveAnswer): the first answer counts, a second
   * is refused as already answered.
   */
  answer(requestId: string, answer: RequestAnswer): Promise<GivenAnswerResult> {
    return giveAnswer(
      {
        store: this.store,
        localControl: (id) =>
          [...this.controls.values()]
            .flatMap((set) => [...set])
            .find((control) => control.pending().some((request) => request.requestId === id)),
      },
      requestId,
      answer,
    );
  }

  /** The requests waiting for an answer in this process, with their sessions. */
  pendingRequests(): (PendingRequest & { sessionId: string })[] {
    return [...this.controls.entries()].flatMap(([sessionId, set]) =>
      [...set].flatMap((control) => control.pending().map((request) => ({ ...request, sessionId }))),
    );
  }

  /** Whether a run of the session goes on in this process. */
  isRunning(sessionId: string): boolean {
    return this.controls.has(sessionId);
  }

  /**
   * Stops the runs of one session at their next phase boundary (tools and model calls in flight
   * are aborted); without a session, every run of this process, and the workers end.
   */
  stop(sessionId?: string): void {
    if (sessionId === undefined) this.stopping = true;
    for (const [id, set] of this.controls) {
      if (sessionId !== undefined && id !== sessionId) continue;
      for (const control of set) control.stop();
    }
  }

  /**
   * Stops a session wherever it runs: its run in this process at the next phase boundary, its
   * goal running in another process by cancelling the goal's task (that worker stops it), and its
   * goals still waiting in the queue by cancelling them. Resolves with whether anything was stopped.
   */
  async stopSession(sessionId: string): Promise<boolean> {
    let stopped = this.controls.has(sessionId);
    this.stop(sessionId);
    for (const task of await this.store.tasks.listActive(DEFAULT_QUEUE)) {
      if (task.sessionId !== sessionId) continue;
      if (task.status === 'in_progress' && stopped) continue; // this process stops it itself
      await this.store.tasks.cancel(task.id);
      stopped = true;
    }
    return stopped;
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
    await this.answerWatch.stop();
    await this.store.close();
  }
}

/** A model given as an object (tests, benches), with the config file and, by its name, its price. */
async function givenModel(
  model: ResolvedModel,
  where: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ResolvedModel & { config: TaskweaveConfig }> {
  const { config } = await loadConfigFile(where);
  return { ...model, price: model.price ?? priceOf(model.id, config.prices), config };
}
