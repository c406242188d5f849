import { z } from 'zod';
import { imageHashSchema, MAX_IMAGES_PER_MESSAGE } from './images.js';
import { storedText } from './stored-text-schema.js';

/**
 * What a client sends the server over the WebSocket (protocol.md, "Client → server"). The server
 * validates every frame with `clientMessageSchema`; the web UI builds its messages from these types.
 */

/** The largest frame the server accepts; a larger one gets an `error` and changes nothing. */
export const MAX_CLIENT_FRAME_BYTES = 1024 * 1024;

const sessionId = z.string().min(1);

/** The approval modes a client may switch to (`--approval`; README, "Approval modes"). */
export const approvalModeSchema = z.enum(['ask', 'edits', 'auto', 'plan-only']);
/** An approval mode as the wire names it. */
export type ApprovalModeChoice = z.infer<typeof approvalModeSchema>;

/** Starts a goal in a new session, or continues `session_id`; it goes through the queue like `taskweave run`. */
export const chatMessageSchema = z.strictObject({
  type: z.literal('chat'),
  content: storedText('the goal').min(1, 'content is empty: say what taskweave should do'),
  session_id: sessionId.optional(),
  /**
   * `auto`, `simple` (plan never), `complex` (plan always), or the seed's boolean: `true` is
   * `auto`, `false` a plain chat turn (the model is offered no tool).
   */
  agent_mode: z.union([z.enum(['auto', 'simple', 'complex']), z.boolean()]).default('auto'),
  agent_max_steps: z.number().int().positive().max(10_000).optional(),
  loop: z.enum(['react', 'roa']).optional(),
  plan: z.enum(['auto', 'always', 'never']).optional(),
  model: z.string().min(1).optional(),
  /** Images for the model: hashes `POST /api/images` returned, at most MAX_IMAGES_PER_MESSAGE. */
  images: z
    .array(imageHashSchema)
    .max(MAX_IMAGES_PER_MESSAGE, `at most ${MAX_IMAGES_PER_MESSAGE} images go with one message`)
    .optional(),
});

export const clientMessageSchema = z.discriminatedUnion('type', [
  chatMessageSchema,
  z.strictObject({
    type: z.literal('agent_control'),
    action: z.literal('stop'),
    session_id: sessionId.optional(),
  }),
  z.strictObject({
    type: z.literal('agent_user_input'),
    content: storedText('the answer'),
    request_id: z.string().min(1).optional(),
  }),
  z.strictObject({
    type: z.literal('plan_decision'),
    plan_id: z.string().min(1),
    decision: z.enum(['approve', 'reject']),
    feedback: storedText('the feedback').optional(),
  }),
  z.strictObject({
    type: z.literal('failure_decision'),
    request_id: z.string().min(1),
    decision: z.enum(['retry', 'resolve', 'skip', 'revise', 'abort']),
    feedback: storedText('the feedback').optional(),
  }),
  z.strictObject({
    type: z.literal('approval_decision'),
    request_id: z.string().min(1),
    decision: z.enum(['allow', 'deny', 'always']),
    reason: storedText('the reason').optional(),
  }),
  /** Switches the server's approval mode for every run (from its next tool call); answered with `approval_mode`. */
  z.strictObject({
    type: z.literal('set_approval_mode'),
    mode: approvalModeSchema,
  }),
  /**
   * Undo the last checkpoint of a session, rewind to before checkpoint `to` (or plan task
   * `task_id`), or redo the last undo; answered by the checkpoint_restored event (or an error).
   */
  z.strictObject({
    type: z.literal('restore_checkpoint'),
    session_id: sessionId,
    action: z.enum(['undo', 'rewind', 'redo']),
    to: z.number().int().positive().optional(),
    task_id: z.string().min(1).optional(),
    mode: z.enum(['code', 'conversation', 'both']).optional(),
    force: z.boolean().optional(),
  }),
  /** Stops a background command of a session (`bg1`); answered by its background_ended event. */
  z.strictObject({
    type: z.literal('stop_background_command'),
    session_id: sessionId,
    command_id: z.string().min(1),
  }),
  z.strictObject({
    type: z.literal('subscribe'),
    session_id: sessionId,
    after_seq: z.number().int().nonnegative().optional(),
  }),
]);

/** A message a client sends, as validated. */
export type ClientMessage = z.infer<typeof clientMessageSchema>;
/** A message as a client writes it (defaults may be left out). */
export type ClientMessageInput = z.input<typeof clientMessageSchema>;
export type ClientMessageType = ClientMessage['type'];
export type ClientMessageOf<K extends ClientMessageType> = Extract<ClientMessage, { type: K }>;
