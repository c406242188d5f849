import type { ServerEvent } from '../events/registry.js';
import type { UnsequencedEvent } from './event-log.js';
import type { Run, Session } from './rows.js';
import type { MessageRole, RunMode, RunState } from './vocabulary.js';

/*
 * The session log as a port: sessions, their runs, their conversation and their event log (the
 * store assigns each event's seq); and the rule of how a run ends, written once for every dialect.
 */

/** A session to create (idle). */
export interface CreateSessionInput {
  title: string;
  goal: string;
  /** The workspace root the session works in. */
  workspace: string;
  /** The model, as `provider:model`. */
  model: string;
}

/** A run to start (running) in a session. */
export interface CreateRunInput {
  sessionId: string;
  goal: string;
  mode: RunMode;
  /** The queue task the run works on, when it came through the queue. */
  taskId?: string;
}

/** How a run ended. */
export interface FinishRunInput {
  id: string;
  status: Exclude<RunState, 'running'>;
  finalAnswer?: string;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  /** What the run cost in US dollars; null or left out when its model has no price. */
  cost?: number | null;
  /** The mode the run ended in, when it changed (a simple run that made a plan is complex). */
  mode?: RunMode;
}

/** One message of a session's conversation; `content` is the JSON value it was stored with. */
export interface StoredMessage {
  id: number;
  sessionId: string;
  runId: string;
  role: MessageRole;
  content: unknown;
  createdAt: number;
  /** The task whose conversation it belongs to; null for the session's top-level conversation. */
  taskId: string | null;
}

/** Where a message goes. */
export interface AppendMessageOptions {
  /** The task the message belongs to (its own conversation); leave out for the top level. */
  taskId?: string;
}

/** Which messages a conversation read returns. */
export interface MessageFilter {
  runId?: string;
  /** A task's conversation; null for the top-level one (messages of no task); leave out for all. */
  taskId?: string | null;
  /** Include the messages a rewind took out of the conversation (left out by default). */
  rewound?: boolean;
}

/** The session log: sessions, runs, their conversation and the event log (the store assigns seq). */
export interface SessionLog {
  /** Creates an idle session. */
  createSession(input: CreateSessionInput): Promise<Session>;
  /** The session, or undefined for an unknown id. */
  getSession(id: string): Promise<Session | undefined>;
  /** The full id of the session a user means by an id or a unique prefix of it (IdLookupError otherwise). */
  resolveId(input: string): Promise<string>;
  /** Sessions, most recently active first. */
  listSessions(options?: { limit?: number }): Promise<Session[]>;
  /** The most recently active session, for `--continue`. */
  lastSession(): Promise<Session | undefined>;
  /** The most recently active session whose last run is still running or that has an unfinished approved plan. */
  latestSessionWithUnfinishedWork(): Promise<Session | undefined>;
  /** Adds a message to the session's conversation (or one task's); throws for an unknown session or task. */
  appendMessage(
    sessionId: string,
    runId: string,
    role: MessageRole,
    content: unknown,
    options?: AppendMessageOptions,
  ): Promise<StoredMessage>;
  /** The conversation of a session in order, filtered when asked. */
  messages(sessionId: string, filter?: MessageFilter): Promise<StoredMessage[]>;
  /**
   * Logs one event under its session's next seq, given by the session's counter in the statement
   * (or transaction) that inserts it: writers anywhere get increasing seqs with no gap. Returns
   * it stamped. The session must exist.
   */
  appendEvent(event: UnsequencedEvent): Promise<ServerEvent>;
  /** Logs events of one session in order under its next seqs, all or none; returns them stamped. */
  appendEvents(events: readonly UnsequencedEvent[]): Promise<ServerEvent[]>;
  /** The logged events of a session in seq order, those after `afterSeq` when given. */
  events(sessionId: string, options?: { afterSeq?: number }): Promise<ServerEvent[]>;
  /** The last seq the session's log gave, 0 when none. */
  lastSeq(sessionId: string): Promise<number>;
  /** Starts a run (status running) and marks its session running. */
  createRun(input: CreateRunInput): Promise<Run>;
  /** Records how a run ended (finishedRun) and marks its session idle. */
  finishRun(input: FinishRunInput): Promise<Run>;
  /** The run, or undefined for an unknown id. */
  getRun(id: string): Promise<Run | undefined>;
  /** The runs of a session, oldest first. */
  runs(sessionId: string): Promise<Run[]>;
  /**
   * Removes a session that holds nothing: no run, message, event, plan, request, command or change
   * record, and no task but cancelled ones (a request cancelled before it ran; they stay in the
   * to-do list, no longer in a session). Atomic; false (nothing changed) when the session holds
   * something or does not exist.
   */
  removeIfEmpty(sessionId: string): Promise<boolean>;
}

/** The statuses of the tasks an empty session may have: requests cancelled before they ran. */
export const EMPTY_SESSION_TASK_STATUSES = ['cancelled'] as const;

/** What a run's row becomes when it ends: its status, answer, counts and cost, ended now. */
export function finishedRun(
  input: FinishRunInput,
  now: number,
): Pick<Run, 'status' | 'finalAnswer' | 'steps' | 'inputTokens' | 'outputTokens' | 'cost' | 'endedAt'> &
  Partial<Pick<Run, 'mode'>> {
  return {
    status: input.status,
    finalAnswer: input.finalAnswer ?? null,
    steps: input.steps,
    inputTokens: input.inputTokens,
    outputTokens: input.outputTokens,
    cost: input.cost ?? null,
    endedAt: now,
    ...(input.mode === undefined ? {} : { mode: input.mode }),
  };
}

/** The session status a run's start and end leave: running while it runs, idle once it ended. */
export const SESSION_STATUS_OF_RUN = { started: 'running', finished: 'idle' } as const;
