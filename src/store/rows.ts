import type {
  BlobStoreKind,
  PlanStatus,
  RequestKind,
  RestoreKind,
  RestoreMode,
  RestoreStatus,
  RunMode,
  RunState,
  SessionStatus,
  TaskStatus,
} from './vocabulary.js';

/*
 * The rows the store's ports return, as the rest of taskweave reads them: times in milliseconds,
 * JSON as text, null where a column is empty. Each dialect's schema has exactly these columns
 * (its schema file checks it at compile time with MatchesStoreRows).
 */

/** A session: one conversation in a workspace, its runs one after another. */
export interface Session {
  id: string;
  title: string;
  goal: string;
  /** The workspace root the session works in. */
  workspace: string;
  /** The model, as `provider:model`. */
  model: string;
  status: SessionStatus;
  createdAt: number;
  updatedAt: number;
}

/** A run: one goal worked on in a session, from start to how it ended. */
export interface Run {
  id: string;
  sessionId: string;
  goal: string;
  mode: RunMode;
  status: RunState;
  finalAnswer: string | null;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  /** What the run's model calls cost in US dollars; null when its model has no price. */
  cost: number | null;
  /** The queue task (a goal) the run worked on; null for a run outside the queue. */
  taskId: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** A plan: a proposed graph of tasks and where it is in its life. */
export interface Plan {
  id: string;
  sessionId: string;
  runId: string;
  status: PlanStatus;
  /** The user's words when they rejected it. */
  feedback: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A task: of the queue (a goal), or of a plan (with its key). */
export interface Task {
  id: string;
  /** Null for queue work added outside a session (`taskweave tasks add`). */
  sessionId: string | null;
  planId: string | null;
  parentId: string | null;
  queue: string;
  /** The plan's own id for the task (`t2`), unique within the plan. */
  key: string | null;
  title: string;
  description: string;
  /** A shell command whose success shows the task is done. */
  checkCommand: string | null;
  /** The settings the goal was submitted with, as JSON; null for work added without any. */
  runSettings: string | null;
  status: TaskStatus;
  /** Position in its queue; lower runs first. */
  sequence: number;
  /** How many times it was claimed or taken over: the fencing token of its holder. */
  attempts: number;
  resultSummary: string | null;
  failReason: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Where and by whom the database was created (one row). */
export interface DatabaseOrigin {
  id: number;
  /** The workspace folder's absolute path (symbolic links resolved). */
  workspace: string;
  host: string;
  user: string;
  createdAt: number;
}

/** A request a run made of the user, and its answer once given. */
export interface StoredRequest {
  /** The request id of its event (a plan's id for a plan). */
  id: string;
  sessionId: string;
  runId: string;
  kind: RequestKind;
  /** The plan task that asked (input, approval) or failed (failure). */
  taskId: string | null;
  /** JSON: the choices a failure decision offers; null otherwise. */
  choices: string | null;
  askedAt: number;
  /** JSON: the answer; null until someone answers. */
  answer: string | null;
  answeredBy: string | null;
  answeredAt: number | null;
  /** The worker that went on with the answer. */
  takenBy: string | null;
  takenAt: number | null;
}

/** A command running now (run_command), from its start to its end. */
export interface RunningCommand {
  /** The mark every process of the command carries in its environment. */
  id: string;
  sessionId: string;
  runId: string;
  callId: string;
  taskId: string | null;
  command: string;
  /** The command's process group (the shell's pid). */
  pgid: number;
  /** The taskweave process that runs it. */
  ownerPid: number;
  /** The machine it runs on; null for a row from before hosts were recorded (this machine's). */
  host: string | null;
  startedAt: number;
  /** The id (`bg1`) of a command started in the background; null for one in the foreground. */
  backgroundId: string | null;
}

/** A change record: one file one tool call changed, before and after (content ids; null for absent). */
export interface FileChange {
  id: number;
  sessionId: string;
  runId: string;
  /** The plan task (as the events name it) whose step it was; null outside a plan. */
  taskId: string | null;
  step: number;
  callId: string;
  tool: string;
  /** Relative to the workspace, with `/` between folders. */
  path: string;
  beforeId: string | null;
  /** The git mode: 100644, 100755 or 120000 (a symbolic link); null when absent. */
  beforeMode: number | null;
  afterId: string | null;
  afterMode: number | null;
  blobStore: BlobStoreKind;
  createdAt: number;
  /** The restore that undid this change; null while it stands. */
  undoneBy: number | null;
}

/** An undo, rewind or redo, pending until every file is back. */
export interface Restore {
  id: number;
  sessionId: string;
  kind: RestoreKind;
  mode: RestoreMode;
  status: RestoreStatus;
  /** JSON: the change record ids it undoes (undo, rewind) or redoes (redo). */
  changeIds: string;
  /** JSON: what it did, once done. */
  result: string | null;
  /** The restore a redo takes back; null otherwise. */
  redoes: number | null;
  createdAt: number;
}

/** Every row type of the face, by table. */
export interface StoreRows {
  sessions: Session;
  runs: Run;
  plans: Plan;
  tasks: Task;
  databaseOrigin: DatabaseOrigin;
  requests: StoredRequest;
  commands: RunningCommand;
  fileChanges: FileChange;
  restores: Restore;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `true` when a dialect's rows (its tables' selected types, by table) are exactly the face's;
 * `false` otherwise, which a `const x: MatchesStoreRows<…> = true` refuses to compile.
 */
export type MatchesStoreRows<T extends Record<keyof StoreRows, unknown>> = false extends {
  [K in keyof StoreRows]: Same<T[K], StoreRows[K]>;
}[keyof StoreRows]
  ? false
  : true;
