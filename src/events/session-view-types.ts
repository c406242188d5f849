import type { PlanTask, TaskState } from '../plan/task-graph.js';
import type { DiagnosticView } from './diagnostic-text.js';
import type { ImageRecord } from './images.js';
import type { RunStatus } from './registry.js';

/**
 * The shapes of a session's view: what a front end shows of a session, folded from its events by
 * `foldSessionEvent` (session-view.ts). Plain data, safe to keep in React state.
 */

/** Tokens counted so far, and what they cost. */
export interface TokenCount {
  input: number;
  output: number;
  /** US dollars of the priced model calls among them; absent while none had a price. */
  cost?: number;
}

/** One tool call of a step. */
export interface ToolCallView {
  callId: string;
  name: string;
  args: unknown;
  step: number;
  taskId?: string;
  status: 'running' | 'ok' | 'error';
  /** Output lines of a running command, as they arrived. */
  progress: string[];
  /** What the tool returned to the model (`result`), or its error. */
  output?: string;
  /** The short summary for people (`exit 0 · 1.2s`). */
  display?: string;
  /** The problems a file change introduced, as its language server reported them. */
  diagnostics?: DiagnosticView[];
  durationMs?: number;
  startedAt: number;
  /** A `delegate` call: the child run it started, live while it runs. */
  subagent?: SubagentView;
}

/** A subagent (a child run of a `delegate` call): its agent, job, own steps and end. */
export interface SubagentView {
  agent: string;
  job: string;
  maxSteps: number;
  status: 'running' | RunStatus;
  /** The child's own timeline (its steps, with their tool calls), folded like a session's. */
  view: SessionView;
  /** Its steps so far (its own numbering). */
  steps: number;
  /** The last tool it called, for a one-line summary. */
  lastTool?: string;
  answer?: string;
  reason?: string;
  files: string[];
  /** What its model calls took. */
  usage: TokenCount;
}

/** A step of a run as one card: its streamed text, phases, tool calls and what taskweave noted. */
export interface StepItem {
  kind: 'step';
  id: string;
  runId: string;
  step: number;
  taskId?: string;
  startedAt: number;
  /** The model's text as it streamed (void again after a retry). */
  text: string;
  /** The reasoning, when it is not the streamed text (the Reason phase under `roa`). */
  reason?: string;
  observe?: { content: string; shouldContinue?: boolean };
  tools: ToolCallView[];
  notes: string[];
  retries: { attempt: number; delayMs: number; error: string }[];
  /** A final answer given while tasks remained was refused (the count that remained). */
  refusedRemaining?: number;
  usage: TokenCount;
  /** True once an undo or rewind took this step's file changes back (a redo clears it). */
  rewound?: boolean;
}

/** The goal that started a run, with its settings. */
export interface GoalItem {
  kind: 'goal';
  id: string;
  runId: string;
  goal: string;
  /** The images the user's message carried (records: the bytes are fetched by hash). */
  images?: ImageRecord[];
  ts: number;
}

/** A question of the agent, and what became of it. */
export interface QuestionItem {
  kind: 'question';
  id: string;
  runId: string;
  requestId: string;
  question: string;
  taskId?: string;
  askedAt: number;
  answer?: string;
  timedOut: boolean;
}

/** A failed plan task waiting for the user's decision (retry, resolve, skip, revise, abort). */
export interface FailureItem {
  kind: 'failure';
  id: string;
  runId: string;
  requestId: string;
  taskId: string;
  title: string;
  reason: string;
  blocked: { id: string; title: string }[];
  choices: ('retry' | 'resolve' | 'skip' | 'revise' | 'abort')[];
  ts: number;
  /** True once the run went on past the decision. */
  settled: boolean;
}

/** A tool call waiting for the user's approval: the command or the diff it would apply. */
export interface ApprovalItem {
  kind: 'approval';
  id: string;
  runId: string;
  requestId: string;
  callId: string;
  name: string;
  args: unknown;
  /** The command, or the diff of a file change. */
  preview: string;
  /** The "always" button's label, as the core computed it (older logs: none). */
  always?: string;
  /** Where a command's operators are in `preview`. */
  operators?: [number, number][];
  taskId?: string;
  /** The call is the task's check as the approved plan gave it, not a call of the model. */
  check?: boolean;
  askedAt: number;
  /** Once the call ran, was refused or the run ended: what became of it (`exit 0`, `denied: …`). */
  outcome?: string;
  settled: boolean;
}

/** Where a plan was proposed in the conversation (the plan itself is in `plans`). */
export interface PlanItem {
  kind: 'plan';
  id: string;
  runId: string;
  planId: string;
}

/** A plan task changed state (started, completed, failed, blocked, skipped). */
export interface TaskEventItem {
  kind: 'task';
  id: string;
  runId: string;
  taskId: string;
  title: string;
  state: TaskState;
  detail?: string;
  ts: number;
}

/** Something taskweave or the server says outside a step (a stop, a refusal, an error). */
export interface NoticeItem {
  kind: 'notice';
  id: string;
  runId: string;
  tone: 'info' | 'warning' | 'error';
  text: string;
  /** Where a goal's work went at the end of its run (goal_applied): folded into the run's completion. */
  goalWork?: GoalWorkView;
}

/** Where the work of a goal run in git worktrees went, as the run's completion shows it. */
export interface GoalWorkView {
  goalId: string;
  branch: string;
  outcome: 'applied' | 'held' | 'kept' | 'failed';
  /** `applied: 4 files (+9 −2)`, or `on taskweave/<goal>, not applied: …, taskweave apply <goal>`. */
  text: string;
}

/** An undo, rewind or redo: what became of the files, and what was left alone. */
export interface RestoreItem {
  kind: 'restore';
  id: string;
  runId: string;
  restoreKind: 'undo' | 'rewind' | 'redo';
  mode: 'code' | 'conversation' | 'both';
  checkpoints: number[];
  files: { path: string; action: 'created' | 'written' | 'deleted' | 'unchanged' }[];
  conflicts: { path: string; reason: string }[];
  messages: number;
  ts: number;
}

/** How a run ended. */
export interface CompletionItem {
  kind: 'completion';
  id: string;
  runId: string;
  status: RunStatus;
  finalAnswer?: string;
  reason?: string;
  steps: number;
  usage: TokenCount;
  /** A goal run in git worktrees: where its work went (the UI offers its diff and Apply there). */
  goalWork?: GoalWorkView;
}

/** One entry of the conversation, in order. */
export type TimelineItem =
  | GoalItem
  | StepItem
  | QuestionItem
  | ApprovalItem
  | FailureItem
  | PlanItem
  | TaskEventItem
  | NoticeItem
  | RestoreItem
  | CompletionItem;

/** A run of the session. */
export interface RunView {
  runId: string;
  goal: string;
  /** `running` until the run's response_complete. */
  status: 'running' | RunStatus;
  maxSteps: number;
  loop: 'react' | 'roa';
  mode: 'simple' | 'complex';
  model: string;
  startedAt: number;
  endedAt?: number;
  usage: TokenCount;
}

/** A node of the plan graph: a task and where it stands. */
export interface PlanNodeView {
  state: TaskState;
  startedAt?: number;
  endedAt?: number;
  summary?: string;
  reason?: string;
  /** The task's model calls (its model_usage events); absent before its first. */
  usage?: TokenCount;
}

/** A plan as proposed, decided and run. */
export interface PlanView {
  planId: string;
  runId: string;
  tasks: PlanTask[];
  status: 'proposed' | 'approved' | 'rejected' | 'resumed' | 'ended';
  feedback?: string;
  nodes: Record<string, PlanNodeView>;
  /** Ids along the longest dependency chain, first to run first. */
  criticalPath: string[];
  proposedAt: number;
}

/** Everything a front end shows of one session. */
export interface SessionView {
  sessionId?: string;
  /** The highest logged seq folded in; a logged event at or below it is a duplicate. */
  lastSeq: number;
  items: TimelineItem[];
  runs: RunView[];
  plans: PlanView[];
  usage: TokenCount;
  /** Tool calls started and not finished. */
  runningTools: number;
  /** The session's background commands (run_command `background: true`), oldest first. */
  background: BackgroundCommandView[];
}

/** A background command as the views show it: its last lines and how it stands. */
export interface BackgroundCommandView {
  /** `bg1`, `bg2`, … (what /shells and the tools name it). */
  id: string;
  runId: string;
  command: string;
  state: 'running' | 'exited' | 'killed' | 'stopped';
  exitCode?: number;
  stoppedBy?: string;
  lines: string[];
  startedAt: number;
}
