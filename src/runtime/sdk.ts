import type { PendingRequest, PlanMode, RequestAnswer, RequestPolicy } from '../agent/index.js';
import type { ServerEvent } from '../events/registry.js';
import { contextLimitsFor } from '../model/context-limits.js';
import type { Task } from '../store/rows.js';
import type { ApprovalMode } from '../tools/approval.js';
import type { McpServerConfig } from '../tools/mcp/index.js';
import type { SandboxMode } from '../tools/sandbox-modes.js';
import type { GivenAnswerResult } from './answers/give-answer.js';
import type { SessionDetail, SessionSummary } from './books/session-book.js';
import type { TaskTreeNode } from './books/task-board.js';
import { GoalRun } from './goal-run.js';
import { Runtime, type RuntimeOptions } from './runtime.js';

/** What `open` takes: the workspace and how its runs go. Everything but `cwd` has a default. */
export interface OpenOptions {
  /** The workspace folder (it must exist). */
  cwd: string;
  /** `provider:model` (or `script:file.json`); the environment's and the config file's when left out. */
  model?: string;
  baseUrl?: string;
  /** The SQLite file; `<cwd>/.taskweave/taskweave.db` when left out. */
  db?: string;
  /** A shared store's URL (`postgres://…`). */
  store?: string;
  maxSteps?: number;
  /** When a goal gets a plan: `auto` (the model decides), `always`, `never`. */
  plan?: PlanMode;
  loop?: 'react' | 'roa';
  /** When tool calls wait for `answer`: `ask` (the default, or the config's), `edits`, `auto`, `plan-only`. */
  approval?: ApprovalMode;
  sandbox?: SandboxMode;
  network?: boolean;
  /** `false`: no language servers (no diagnostics after changes, no code_navigation), as `--no-lsp`. */
  lsp?: boolean;
  /**
   * Who answers the runs' questions, approvals, plans and failure decisions: `program` (the
   * default: each is an event with a `request_id`, answered with `answer`) or `nobody` (the
   * non-interactive rules: questions end the run as needs_input, plans wait, failures abort).
   */
  answers?: 'program' | 'nobody';
  /** How long a request waits for its answer, in ms. */
  inputTimeoutMs?: number;
  /** MCP servers to connect besides the config file's. */
  mcpServers?: Record<string, McpServerConfig>;
  /** The environment (process.env when left out). */
  env?: NodeJS.ProcessEnv;
}

/** What one goal may set for itself. */
export interface RunOptions {
  /** The session to continue (its id); a new session when left out. */
  session?: string;
  maxSteps?: number;
  plan?: PlanMode;
  loop?: 'react' | 'roa';
  /** A stricter approval mode for this goal than the workspace's (a looser one is not taken). */
  approval?: ApprovalMode;
  /** `true`: a plain chat turn, the model offered no tool. */
  chat?: boolean;
  /** Images for the model with the goal: hashes `runtime.takeImage` returned (at most 8). */
  images?: readonly string[];
  /** Stop the goal running in the workspace's queue first (its worker stops it at its next step). */
  interrupt?: boolean;
  /**
   * The queue it joins (a repository's in a shared store; the workspace's when left out); with
   * `forWorkers` it is only queued there, for that queue's workers, and followed from here.
   */
  queue?: string;
  forWorkers?: boolean;
  /** `false`: a goal that has to wait in the queue is left there (`settled` says `queued`). */
  wait?: boolean;
  /** Its events while another process runs it (a queued goal): this process's own runs' come through `onEvent`. */
  following?: (event: ServerEvent) => void;
}

const PROGRAM_ANSWERS: RequestPolicy = { input: 'ask', approval: 'ask', plan: 'ask', failure: 'ask' };
const NOBODY_ANSWERS: RequestPolicy = { input: 'nobody', plan: 'nobody', failure: 'abort' };

/**
 * Opens a workspace for a program: `run` goals and read their events, `answer` what they ask,
 * `stop` them, read sessions, plans and the queue. `close` it when done.
 *
 * ```ts
 * const taskweave = await open({ cwd: '/path/to/project' });
 * for await (const event of taskweave.run('add a test for parseArgs')) console.log(event.type);
 * await taskweave.close();
 * ```
 */
export async function open(options: OpenOptions): Promise<Taskweave> {
  const { answers, ...rest } = options;
  const runtimeOptions: RuntimeOptions = {
    ...rest,
    plan: options.plan ?? 'auto',
    onFailure: 'abort',
    protocol: 'native',
    policy: answers === 'nobody' ? NOBODY_ANSWERS : PROGRAM_ANSWERS,
  };
  return new Taskweave(await Runtime.open(runtimeOptions));
}

/** An open workspace, as a program drives it (see `open`). */
export class Taskweave {
  /** The runtime under it, for what this face does not cover (checkpoints, custom commands, settings…). */
  readonly runtime: Runtime;

  constructor(runtime: Runtime) {
    this.runtime = runtime;
  }

  /** The workspace's root folder. */
  get workspace(): string {
    return this.runtime.workspace.root;
  }

  /** The model the runs use, as `provider:model`. */
  get model(): string {
    return this.runtime.model.id;
  }

  /**
   * Submits a goal (in a new session, or continuing `options.session`) through the workspace's
   * queue; iterate the result for its events until its `response_complete`.
   */
  run(goal: string, options: RunOptions = {}): GoalRun {
    const { session, interrupt, queue, forWorkers, wait, following, ...settings } = options;
    const submitted = this.runtime.submit(goal, {
      ...(session === undefined ? {} : { sessionId: session }),
      ...(interrupt ? { interrupt } : {}),
      ...(queue === undefined ? {} : { queue }),
      ...(forWorkers ? { forWorkers } : {}),
      settings,
    });
    return new GoalRun(this.runtime, submitted, {
      ...(wait === undefined ? {} : { wait }),
      ...(following === undefined ? {} : { following }),
    });
  }

  /**
   * Every event of the runs in this process (all sessions, as they happen; not those another
   * process runs: `follow` a session for those). Returns the unsubscribe.
   */
  onEvent(listener: (event: ServerEvent) => void): () => void {
    return this.runtime.bus.subscribe(listener);
  }

  /**
   * Answers a request: a question (`agent_request_input`), a tool call's approval
   * (`approval_requested`), a plan (`plan_proposed`, by its plan id) or a failure decision.
   * The first answer counts; another is refused with the reason and its kind (`code`).
   */
  answer(requestId: string, answer: RequestAnswer): Promise<GivenAnswerResult> {
    return this.runtime.answer(requestId, answer);
  }

  /** The requests waiting for an answer in this process, with their sessions. */
  pending(): (PendingRequest & { sessionId: string })[] {
    return this.runtime.pendingRequests();
  }

  /**
   * Stops a session's run at its next phase boundary (the tool or model call going on is
   * aborted) and cancels its queued goals; without a session, every run of this process.
   * Resolves with whether anything was stopped.
   */
  async stop(session?: string): Promise<boolean> {
    if (session !== undefined) return this.runtime.stopSession(session);
    this.runtime.stop();
    return true;
  }

  /** Follows a session's events after `afterSeq` (replayed, then live); returns the unsubscribe. */
  follow(session: string, afterSeq: number, listener: (event: ServerEvent) => void): () => void {
    return this.runtime.subscribe(session, afterSeq, listener);
  }

  /** The model's context window in tokens (the config's, else the known one, else a default). */
  get contextWindow(): number {
    return this.runtime.model.context?.window ?? contextLimitsFor(this.runtime.model.id).window;
  }

  /** When tool calls wait for an answer; runs going on apply a change from their next call. */
  get approvalMode(): ApprovalMode {
    return this.runtime.approvalMode;
  }

  set approvalMode(mode: ApprovalMode) {
    this.runtime.setApprovalMode(mode);
  }

  /** The workspace's sessions. */
  readonly sessions = {
    /** Sessions, the most recently active first. */
    list: (limit?: number): Promise<SessionSummary[]> =>
      this.runtime.sessions.list(limit === undefined ? {} : { limit }),
    /** A session (id, unique prefix or `last`) with its runs, messages and events. */
    get: (session: string): Promise<SessionDetail> => this.runtime.sessions.detail(session, { events: true }),
    /** A session's logged events after a seq. */
    events: (session: string, afterSeq?: number): Promise<ServerEvent[]> =>
      this.runtime.sessions.events(session, afterSeq),
    /** Starts an empty session that goals can then continue (`run(goal, { session })`). */
    create: (title: string): Promise<string> => this.runtime.newSession(title),
  };

  /** Plans, by their ids (a `plan_proposed` event's `plan_id`). */
  readonly plans = {
    /** A plan with its tasks and their dependencies. */
    get: (planId: string) => this.runtime.tasks.plan(planId),
  };

  /** The workspace's persistent task queue. */
  readonly queue = {
    /** The goals still to do with their plans' tasks (`all`: finished ones too). */
    list: (options: { all?: boolean } = {}): Promise<TaskTreeNode[]> => this.runtime.tasks.list(options),
    /** Adds a goal to the queue without running it (a worker or `work` runs it). */
    add: (goal: string, options: { title?: string } = {}): Promise<{ task: Task; position: number }> =>
      this.runtime.tasks.add({ description: goal, ...options }),
    /** Runs the queue's goals one after another until it is empty. */
    work: () => this.runtime.work(),
  };

  /**
   * Stops the runs still going in this process (at their next phase boundary), waits for them to
   * end and closes the workspace.
   */
  async close(): Promise<void> {
    this.runtime.stop();
    await this.runtime.settled();
    await this.runtime.close();
  }
}
