import { z } from 'zod';
import { imageRecordSchema } from './images.js';
import { RUN_STATUSES } from './run-status.js';

/**
 * The one event vocabulary of taskweave (see protocol.md). The WebSocket validation, the CLI
 * renderer, the `--json` output and the event log all derive from these schemas.
 */

/** Fields every server → client message carries; the bus stamps them. */
export const envelopeSchema = z.object({
  session_id: z.string(),
  run_id: z.string(),
  seq: z.number().int().nonnegative(),
  ts: z.number(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const runStatusSchema = z.enum(RUN_STATUSES);
/** How a run ended. */
export type RunStatus = z.infer<typeof runStatusSchema>;

const step = z.number().int().nonnegative();
const taskId = z.string().optional();
/**
 * Set on the events of a subagent (a child run started by a `delegate` call): the parent's
 * call id and the agent's name. A child counts its own steps.
 */
const child = { parent_call_id: z.string().optional(), agent: z.string().optional() };
/** A problem a language server reports in a file (1-based line and column). */
const diagnostic = z.object({
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  severity: z.enum(['error', 'warning']),
  code: z.string().optional(),
  message: z.string(),
});
const tokens = z.number().int().nonnegative();
/** An amount of money in US dollars (the price table's currency). */
const dollars = z.number().nonnegative();

const planTaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  depends_on: z.array(z.string()),
  /** The command that proves the task done, when the plan gives one. */
  check: z.string().optional(),
});

function agentUpdate<K extends string, S extends z.ZodRawShape>(updateType: K, shape: S) {
  return z.object({ type: z.literal('agent_update'), update_type: z.literal(updateType), ...shape });
}
function topLevel<K extends string, S extends z.ZodRawShape>(type: K, shape: S) {
  return z.object({ type: z.literal(type), ...shape });
}

export const eventPayloadSchema = z.union([
  agentUpdate('agent_start', {
    max_steps: z.number().int(),
    mode: z.enum(['simple', 'complex']),
    loop: z.enum(['react', 'roa']),
    model: z.string(),
    goal: z.string(),
    /** The run continues one a process left unfinished (taskweave asked the model to go on); `goal` is that run's. */
    continued: z.boolean().optional(),
    /** The approval mode (`ask`, `edits`, `auto`, `plan-only`). */
    approval: z.string().optional(),
    /** How commands are confined: `workspace-write`, `read-only`, `off`, or `unavailable` (no bubblewrap). */
    sandbox: z.string().optional(),
    /** Whether sandboxed commands have network access. */
    network: z.boolean().optional(),
    /** Where plan tasks work: `auto`, `worktree` or `shared` (the setting; what a plan got is said when it starts). */
    isolation: z.string().optional(),
    /** The images of the user's message (records; the bytes are served by `GET /api/images/:hash`). */
    images: z.array(imageRecordSchema).optional(),
  }),
  agentUpdate('agent_turn_start', { step, task_id: taskId, ...child }),
  agentUpdate('agent_reason', { step, content: z.string(), task_id: taskId, ...child }),
  agentUpdate('agent_text_delta', { step, content: z.string(), task_id: taskId, ...child }),
  /** What the Observe phase of a `roa` step concluded; `should_continue` false ends a simple run. */
  agentUpdate('agent_observe', {
    step,
    content: z.string(),
    should_continue: z.boolean().optional(),
    task_id: taskId,
    ...child,
  }),
  /** A message taskweave itself adds to the conversation (a recovery rule fired, say). */
  agentUpdate('agent_note', { step, content: z.string(), task_id: taskId, ...child }),
  /** A transient model error is being retried after a delay. */
  agentUpdate('agent_retry', {
    step,
    attempt: z.number().int(),
    delay_ms: z.number(),
    error: z.string(),
    ...child,
  }),
  /** Token usage of one model call; `cost` in US dollars, absent when the model has no price. */
  agentUpdate('model_usage', {
    step,
    phase: z.string(),
    task_id: taskId,
    ...child,
    input_tokens: tokens,
    output_tokens: tokens,
    cost: dollars.optional(),
  }),
  /**
   * The older part of a conversation was replaced by a summary (one `compact` model call), or its
   * earlier images by short markers (first, before any text is summarised; `images_dropped`): the
   * context's estimated size before and after, and what that saves on every later call.
   */
  agentUpdate('context_compacted', {
    step,
    task_id: taskId,
    ...child,
    messages_before: z.number().int(),
    messages_after: z.number().int(),
    tokens_before: tokens,
    tokens_after: tokens,
    tokens_saved: tokens,
    images_dropped: z.number().int().positive().optional(),
  }),
  agentUpdate('agent_request_input', {
    step,
    request_id: z.string(),
    question: z.string(),
    task_id: taskId,
    ...child,
  }),
  /** A plan task failed: the run waits for retry, resolve (a merge conflict only), skip, revise or abort (answered by request_id). */
  agentUpdate('failure_decision_requested', {
    request_id: z.string(),
    task_id: z.string(),
    reason: z.string(),
    blocked: z.array(z.string()),
    choices: z.array(z.enum(['retry', 'resolve', 'skip', 'revise', 'abort'])),
  }),
  /**
   * A tool call waits for the user's approval (answered by request_id): the command or the diff,
   * what "always" would allow (the button's label), and where a command's operators are.
   */
  agentUpdate('approval_requested', {
    request_id: z.string(),
    call_id: z.string(),
    name: z.string(),
    args: z.unknown(),
    preview: z.string(),
    /** The "always" button's label: `Always allow \`npm test …\`` or `Always: this exact command`. */
    always: z.string().optional(),
    /** [start, end) of each operator (`&&`, `||`, `|`, `;`, `&`, `$(`…) in `preview`, UTF-16 code units. */
    operators: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
    /** The call is the `check` of the task as the approved plan gave it, not a call of the model. */
    check: z.boolean().optional(),
    task_id: taskId,
    ...child,
  }),
  agentUpdate('agent_request_input_timeout', { request_id: z.string() }),
  agentUpdate('agent_user_input', { request_id: z.string(), content: z.string() }),
  agentUpdate('agent_stopped', { step, ...child }),
  agentUpdate('final_answer_refused', { step, remaining: z.number().int() }),
  /**
   * A `delegate` call started a subagent: its agent, the job it was given, its step limit. The
   * child's events follow, each with `parent_call_id` and `agent`; subagent_ended closes it.
   */
  agentUpdate('subagent_started', {
    step,
    parent_call_id: z.string(),
    agent: z.string(),
    job: z.string(),
    max_steps: z.number().int(),
    task_id: taskId,
  }),
  /**
   * A subagent ended: its status, its answer (or why it ended without one), its own steps, the
   * files it changed, and what it spent (counted to the session; `cost` when the model has a price).
   */
  agentUpdate('subagent_ended', {
    step,
    parent_call_id: z.string(),
    agent: z.string(),
    status: runStatusSchema,
    answer: z.string().optional(),
    reason: z.string().optional(),
    steps: z.number().int().nonnegative(),
    files: z.array(z.string()),
    input_tokens: tokens,
    output_tokens: tokens,
    cost: dollars.optional(),
    task_id: taskId,
  }),
  agentUpdate('plan_proposed', { plan_id: z.string(), tasks: z.array(planTaskSchema) }),
  agentUpdate('plan_approved', { plan_id: z.string() }),
  /** An approved plan an earlier process left unfinished goes on; `completed` tasks are not run again. */
  agentUpdate('plan_resumed', {
    plan_id: z.string(),
    tasks: z.array(planTaskSchema),
    completed: z.array(z.string()),
  }),
  /**
   * An undo, rewind or redo put files back (and, by mode, took the conversation back): `step` is
   * the checkpoint it went back to (or redid), `files` what became of each file, `conflicts` the
   * files left alone because their content was not what taskweave left.
   */
  agentUpdate('checkpoint_restored', {
    step: z.number().int().nonnegative(),
    kind: z.enum(['undo', 'rewind', 'redo']),
    files: z.array(
      z.object({ path: z.string(), action: z.enum(['created', 'written', 'deleted', 'unchanged']) }),
    ),
    conflicts: z.array(z.object({ path: z.string(), reason: z.string() })),
    mode: z.enum(['code', 'conversation', 'both']),
    /** The checkpoints whose changes it took back (undo, rewind) or put again (redo). */
    checkpoints: z.array(z.number().int().positive()),
    /** Those checkpoints' steps, so that a view can mark them rewound (or not again, after a redo). */
    steps: z.array(z.object({ run_id: z.string(), step: z.number().int().nonnegative(), task_id: taskId })),
    /** Messages taken out of the conversation (or put back by a redo). */
    messages: z.number().int().nonnegative(),
    task_id: taskId,
    ...child,
  }),
  /**
   * A hook of the user's config ran (see hooks-config.ts): at which moment, the tool it matched,
   * its exit code (null when it was killed: `timed_out`, or it could not start), how long it took,
   * and for a failure the end of what it wrote on stderr. A failed `beforeTool` hook refused the call.
   */
  agentUpdate('hook_ran', {
    hook: z.enum(['runStart', 'beforeTool', 'afterTool', 'waitingForInput', 'runEnd']),
    command: z.string(),
    match: z.string().optional(),
    tool: z.string().optional(),
    exit_code: z.number().int().nullable(),
    duration_ms: z.number(),
    timed_out: z.boolean().optional(),
    message: z.string().optional(),
    step,
    task_id: taskId,
    ...child,
  }),
  /** A plan's tasks run in git worktrees: its goal branch, and why (auto's choice, or the setting). */
  agentUpdate('goal_branch', {
    plan_id: z.string(),
    branch: z.string(),
    base: z.string(),
    reason: z.string(),
  }),
  /**
   * The end of a goal run in git worktrees: whether its change landed in the user's working tree
   * (`applied`: the files, lines added and removed), was held back because the user changed some
   * of its files meanwhile (`held`: those files; nothing was touched), was kept on its branch
   * (`kept`: --no-apply or the config's `apply: false`), or could not be applied (`failed`).
   */
  agentUpdate('goal_applied', {
    plan_id: z.string(),
    branch: z.string(),
    outcome: z.enum(['applied', 'held', 'kept', 'failed']),
    files: z.array(z.string()),
    added: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
    reason: z.string().optional(),
  }),
  /** A task got its worktree on its own branch (`created` false: one a crashed process left, continued). */
  agentUpdate('worktree_created', {
    task_id: z.string(),
    branch: z.string(),
    path: z.string(),
    commit: z.string(),
    created: z.boolean(),
  }),
  /**
   * A task whose check passed was merged into the goal branch (`already`: nothing merged now;
   * `unchanged`: because the task committed nothing of its own, else it was merged before a crash).
   */
  agentUpdate('task_merged', {
    task_id: z.string(),
    branch: z.string(),
    commit: z.string(),
    already: z.boolean(),
    unchanged: z.boolean().optional(),
  }),
  /** A task's merge conflicts: the files and what each side did (the task then fails; its decision follows). */
  agentUpdate('merge_conflict', {
    task_id: z.string(),
    branch: z.string(),
    files: z.array(z.object({ path: z.string(), goal: z.string(), task: z.string() })),
  }),
  agentUpdate('plan_rejected', { plan_id: z.string(), feedback: z.string().optional() }),
  agentUpdate('task_started', { task_id: z.string(), title: z.string() }),
  agentUpdate('task_completed', { task_id: z.string(), title: z.string(), summary: z.string() }),
  agentUpdate('task_failed', { task_id: z.string(), title: z.string(), reason: z.string() }),
  agentUpdate('task_blocked', { task_id: z.string(), title: z.string(), reason: z.string() }),
  /** The user chose to skip a failed task; the tasks after it run. */
  agentUpdate('task_skipped', { task_id: z.string(), title: z.string() }),
  agentUpdate('agent_completion', {
    steps: z.number().int(),
    status: runStatusSchema,
    final_answer: z.string().optional(),
    reason: z.string().optional(),
    /**
     * The run failed because the model's provider refused to answer: its replies were stopped by
     * the content filter (finish reason content-filter). Absent otherwise.
     */
    refused: z.boolean().optional(),
    input_tokens: tokens,
    output_tokens: tokens,
    /** The run's cost in US dollars, absent when its model has no price. */
    cost: dollars.optional(),
  }),
  /**
   * The session's spending passed its budget (config `budget.session`, `--budget`): the run
   * stops at this step boundary (its completion says stopped, with the reason). US dollars.
   */
  agentUpdate('budget_exceeded', { step, spent: dollars, budget: dollars }),
  topLevel('tool_start', {
    call_id: z.string(),
    name: z.string(),
    args: z.unknown(),
    step,
    task_id: taskId,
    ...child,
  }),
  /** A line of progress from a long-running tool (command output as it arrives). */
  topLevel('tool_progress', {
    call_id: z.string(),
    name: z.string(),
    content: z.string(),
    task_id: taskId,
    ...child,
  }),
  /** `diagnostics`: the problems a file change introduced, as its language server reports them. */
  topLevel('tool_complete', {
    call_id: z.string(),
    name: z.string(),
    result: z.string(),
    display: z.string().optional(),
    diagnostics: z.array(diagnostic).optional(),
    duration_ms: z.number(),
    task_id: taskId,
    ...child,
  }),
  topLevel('tool_error', {
    call_id: z.string(),
    name: z.string(),
    error: z.string(),
    display: z.string().optional(),
    duration_ms: z.number(),
    task_id: taskId,
    ...child,
  }),
  /** run_command started a command in the background (`background: true`); `command_id` names it (`bg1`). */
  topLevel('background_started', {
    command_id: z.string(),
    call_id: z.string(),
    command: z.string(),
    task_id: taskId,
    ...child,
  }),
  /** A background command's last lines of output; at most one a second per command. */
  topLevel('background_output', { command_id: z.string(), lines: z.array(z.string()) }),
  /**
   * A background command ended: `exited` (with its code), `killed` (by a signal), or `stopped`
   * (`stopped_by` the model, the user, the end of the session, or a resume after a crash).
   */
  topLevel('background_ended', {
    command_id: z.string(),
    state: z.enum(['exited', 'killed', 'stopped']),
    exit_code: z.number().int().optional(),
    stopped_by: z.string().optional(),
    lines: z.array(z.string()),
  }),
  topLevel('response_complete', { status: runStatusSchema, final_answer: z.string().optional() }),
  topLevel('error', { code: z.string(), message: z.string() }),
  /**
   * The server's answer to a WebSocket `chat`: the goal's queue task and its place (0 = started
   * now). Sent to the client that asked, not logged: its seq is 0, like `error`'s.
   */
  topLevel('chat_accepted', { task_id: z.string(), position: z.number().int().nonnegative() }),
  /**
   * The server's approval mode, and how its commands are confined: sent to each WebSocket client
   * when it connects and to all of them when a client switches the mode. Not logged (seq 0).
   */
  topLevel('approval_mode', { mode: z.string(), sandbox: z.string(), network: z.boolean() }),
]);

/** An event as the agent emits it, before the bus stamps the envelope. */
export type EventPayload = z.infer<typeof eventPayloadSchema>;
/** An event as it goes over the wire and into `--json`: payload plus envelope. */
export type ServerEvent = EventPayload & Envelope;

export type AgentUpdate = Extract<EventPayload, { type: 'agent_update' }>;
export type AgentUpdateType = AgentUpdate['update_type'];
/** The payload of one agent_update kind. */
export type AgentUpdateOf<K extends AgentUpdateType> = Extract<AgentUpdate, { update_type: K }>;
export type TopLevelType = Exclude<EventPayload['type'], 'agent_update'>;
/** The payload of one top-level event kind. */
export type TopLevelOf<K extends TopLevelType> = Extract<EventPayload, { type: K }>;

/** Validates a whole server event (payload and envelope), e.g. a `--json` line. */
export const serverEventSchema = z.intersection(eventPayloadSchema, envelopeSchema);
