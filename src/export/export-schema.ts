import { z } from 'zod';
import { imageRecordSchema } from '../events/images.js';

/**
 * The exported document of a session: the JSON format of `taskweave sessions export --format
 * json`, and what the markdown and HTML renderers read. Defined once here; its type derives from
 * the schema. Times are milliseconds since the epoch, like the REST API's.
 */

/** What the `format` field holds: a reader can tell an export from any other JSON. */
export const EXPORT_FORMAT_NAME = 'taskweave.session-export';
/** The version of the document's shape; a change that breaks readers raises it. */
export const EXPORT_VERSION = 1;

const int = z.number().int();

/** Tokens (and, where the usage carried one, the cost in the price table's currency). */
export const exportUsageSchema = z.object({
  input_tokens: int.nonnegative(),
  output_tokens: int.nonnegative(),
  /** Present only when at least one model call counted here had a price. */
  cost: z.number().nonnegative().optional(),
});
export type ExportUsage = z.infer<typeof exportUsageSchema>;

export const exportToolCallSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  args: z.unknown(),
  status: z.enum(['running', 'ok', 'error']),
  /** The short summary for people (`created, 14 lines`, `exit 0 · 1.2s`). */
  display: z.string().optional(),
  duration_ms: z.number().optional(),
  /** What the tool returned to the model (or its error), whole; for a call that never ended, its progress. */
  output: z.string().optional(),
  /** The change a file tool made, as a unified-diff-like text (`@@`, `- `, `+ ` lines). */
  diff: z.string().optional(),
  /** A delegate call's subagent: its agent, job, end, own steps and the calls they made. */
  subagent: z
    .object({
      agent: z.string(),
      job: z.string(),
      status: z.string(),
      steps: z.number().int().nonnegative(),
      answer: z.string().optional(),
      reason: z.string().optional(),
      files: z.array(z.string()),
      input_tokens: z.number().int().nonnegative(),
      output_tokens: z.number().int().nonnegative(),
      tool_calls: z.array(
        z.object({ step: z.number().int(), name: z.string(), args: z.unknown(), status: z.string() }),
      ),
    })
    .optional(),
});
export type ExportToolCall = z.infer<typeof exportToolCallSchema>;

const runId = z.string();

export const exportEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('goal'),
    run_id: runId,
    goal: z.string(),
    /** The images of the user's message, by record (the HTML export embeds their bytes). */
    images: z.array(imageRecordSchema).optional(),
    at: z.number(),
  }),
  z.object({
    kind: z.literal('step'),
    run_id: runId,
    step: int.nonnegative(),
    task_id: z.string().optional(),
    task_title: z.string().optional(),
    started_at: z.number(),
    /** The model's text (its reasoning under react). */
    text: z.string(),
    /** The Reason phase's text under roa, when it is not `text`. */
    reasoning: z.string().optional(),
    observation: z.object({ content: z.string(), should_continue: z.boolean().optional() }).optional(),
    notes: z.array(z.string()),
    retries: z.array(z.object({ attempt: int, delay_ms: z.number(), error: z.string() })),
    /** A final answer given while this many tasks remained was refused. */
    refused_remaining: int.optional(),
    /** An undo or rewind took this step's file changes back. */
    rewound: z.boolean().optional(),
    usage: exportUsageSchema,
    tool_calls: z.array(exportToolCallSchema),
  }),
  z.object({
    kind: z.literal('question'),
    run_id: runId,
    request_id: z.string(),
    task_id: z.string().optional(),
    question: z.string(),
    answer: z.string().optional(),
    timed_out: z.boolean(),
    asked_at: z.number(),
  }),
  z.object({
    kind: z.literal('approval'),
    run_id: runId,
    request_id: z.string(),
    name: z.string(),
    /** The command, or the diff of the file change, the user was asked about. */
    preview: z.string(),
    outcome: z.string().optional(),
    task_id: z.string().optional(),
  }),
  z.object({
    kind: z.literal('failure'),
    run_id: runId,
    task_id: z.string(),
    title: z.string(),
    reason: z.string(),
    blocked: z.array(z.string()),
  }),
  z.object({ kind: z.literal('plan'), run_id: runId, plan_id: z.string() }),
  z.object({
    kind: z.literal('task'),
    run_id: runId,
    task_id: z.string(),
    title: z.string(),
    state: z.string(),
    detail: z.string().optional(),
    at: z.number(),
  }),
  z.object({
    kind: z.literal('notice'),
    run_id: runId,
    tone: z.enum(['info', 'warning', 'error']),
    text: z.string(),
  }),
  z.object({
    kind: z.literal('restore'),
    run_id: runId,
    restore_kind: z.enum(['undo', 'rewind', 'redo']),
    mode: z.enum(['code', 'conversation', 'both']),
    files: z.array(z.object({ path: z.string(), action: z.string() })),
    conflicts: z.array(z.object({ path: z.string(), reason: z.string() })),
  }),
  z.object({
    kind: z.literal('completion'),
    run_id: runId,
    status: z.string(),
    final_answer: z.string().optional(),
    reason: z.string().optional(),
    steps: int,
    usage: exportUsageSchema,
  }),
]);
/** One entry of the conversation, in order. */
export type ExportEntry = z.infer<typeof exportEntrySchema>;
/** An entry of one kind. */
export type ExportEntryOf<K extends ExportEntry['kind']> = Extract<ExportEntry, { kind: K }>;

export const exportPlanSchema = z.object({
  plan_id: z.string(),
  run_id: runId,
  status: z.string(),
  feedback: z.string().optional(),
  tasks: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      depends_on: z.array(z.string()),
      check: z.string().optional(),
      /** Where the task stands at the end of the log (pending, in_progress, completed, failed…). */
      state: z.string(),
      summary: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
});
export type ExportPlan = z.infer<typeof exportPlanSchema>;

export const exportRunSchema = z.object({
  run_id: runId,
  goal: z.string(),
  status: z.string(),
  model: z.string(),
  loop: z.string(),
  mode: z.string(),
  max_steps: int,
  started_at: z.number(),
  ended_at: z.number().optional(),
  usage: exportUsageSchema,
});
export type ExportRun = z.infer<typeof exportRunSchema>;

/** A whole exported session. */
export const sessionExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT_NAME),
  version: z.literal(EXPORT_VERSION),
  exported_at: z.number(),
  session: z.object({
    id: z.string(),
    title: z.string(),
    goal: z.string(),
    workspace: z.string(),
    model: z.string(),
    status: z.string(),
    created_at: z.number(),
    updated_at: z.number(),
  }),
  usage: exportUsageSchema,
  runs: z.array(exportRunSchema),
  plans: z.array(exportPlanSchema),
  timeline: z.array(exportEntrySchema),
});
export type SessionExport = z.infer<typeof sessionExportSchema>;
