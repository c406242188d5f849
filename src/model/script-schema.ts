import { z } from 'zod';
import { describeIssues } from '../util/describe-issues.js';
import { ModelConfigError } from './types.js';

const phaseSchema = z.enum(['act', 'reason', 'observe', 'plan', 'analyze', 'compact']);

const scriptToolCallSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.json()).default({}),
  /** Generated when absent. */
  id: z.string().min(1).optional(),
});

const scriptErrorSchema = z.strictObject({
  /** The HTTP status the call fails with. */
  status: z.number().int().min(400).max(599),
  message: z.string().min(1),
  /** Seconds, sent as the `retry-after` response header. */
  retryAfter: z.number().nonnegative().optional(),
});

const scriptTurnSchema = z
  .strictObject({
    task: z.string().min(1).optional(),
    /** A subagent's name: the turn is for that agent's calls (and a subagent takes only its own). */
    agent: z.string().min(1).optional(),
    phase: phaseSchema.optional(),
    when: z.string().min(1).optional(),
    text: z.string().optional(),
    toolCalls: z.array(scriptToolCallSchema).optional(),
    object: z.json().optional(),
    error: scriptErrorSchema.optional(),
    latencyMs: z.number().nonnegative().optional(),
    /** The finish reason the reply reports (AI SDK names); by default tool-calls or stop. */
    finishReason: z.enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']).optional(),
  })
  .superRefine((turn, ctx) => {
    const hasReply = turn.text !== undefined || turn.toolCalls !== undefined;
    if (!hasReply && turn.object === undefined && turn.error === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a turn needs text, toolCalls, object or error' });
    }
    if (turn.error !== undefined && (hasReply || turn.object !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'a turn with error cannot also reply' });
    }
    if (turn.object !== undefined && hasReply) {
      ctx.addIssue({ code: 'custom', message: 'a turn with object cannot also have text or toolCalls' });
    }
  });

/** A script file as protocol.md describes it ("The script model"). */
export const modelScriptSchema = z.strictObject({
  /** What the script replays, for people reading it; not used. */
  description: z.string().optional(),
  /** Default delay before each reply, in milliseconds; a turn's own latencyMs wins. */
  latencyMs: z.number().nonnegative().optional(),
  /** Whether the script stands for a model that sees images (default true); false to test a text-only model. */
  vision: z.boolean().optional(),
  turns: z.array(scriptTurnSchema).min(1),
});

/** A validated script. */
export type ModelScript = z.output<typeof modelScriptSchema>;
/** A script as written (tool call `args` may be left out). */
export type ModelScriptInput = z.input<typeof modelScriptSchema>;
/** One turn of a script. */
export type ScriptTurn = ModelScript['turns'][number];

/** Validates a script; `name` (the file) is named in the error when it is malformed. */
export function parseModelScript(value: unknown, name: string): ModelScript {
  const parsed = modelScriptSchema.safeParse(value);
  if (!parsed.success) {
    throw new ModelConfigError(`The script file ${name} is not valid: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}
