import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3FinishReason,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { z } from 'zod';
import { promptText } from './prompt-text.js';
import { isTransientStatus } from './retry.js';
import {
  type ModelScript,
  type ModelScriptInput,
  parseModelScript,
  type ScriptTurn,
} from './script-schema.js';
import { sleep } from './sleep.js';
import { ModelConfigError } from './types.js';

/** A rough tokens-per-character ratio: enough for accounting to show plausible figures. */
const CHARS_PER_TOKEN = 4;
const TEXT_PART_ID = 'text-1';

/** No unused turn of the script matches a call: the run fails instead of hanging. */
export class ScriptExhaustedError extends Error {
  override name = 'ScriptExhaustedError';

  constructor(
    readonly call: { taskId?: string; agent?: string; phase?: string },
    readonly usedTurns: number,
    readonly totalTurns: number,
  ) {
    super(
      `script exhausted: no unused turn matches this call (task ${call.taskId ?? 'none'}${call.agent === undefined ? '' : `, agent ${call.agent}`}, phase ${call.phase ?? 'none'}); ${usedTurns} of ${totalTurns} turns used`,
    );
  }
}

// Lenient on purpose: a call without a tag (or with a foreign one) matches only untagged turns.
const callTagSchema = z.object({
  taskId: z.string().optional(),
  agent: z.string().optional(),
  phase: z.string().optional(),
});

interface ScriptReply {
  turnNumber: number;
  text: string;
  toolCalls: { id: string; name: string; input: string }[];
  usage: LanguageModelV3Usage;
  finishReason: LanguageModelV3FinishReason;
}

/**
 * The script model of protocol.md: an AI SDK language model that replays a file of turns, for
 * tests, benchmarks and reproducible demos. Each call takes the first unused turn whose `task`,
 * `phase` and `when` (each only when present) and `agent` (a subagent's name, or none) match the call's `providerOptions.taskweave` tag
 * and prompt text.
 */
export class ScriptModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'script';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly used: boolean[];
  /** Whether it stands for a model that sees images (the script's `vision`, default true). */
  readonly vision: boolean;
  /** Tells apart the call ids of two processes replaying the same script (a resumed run). */
  private readonly instance = randomUUID().slice(0, 6);

  constructor(
    private readonly script: ModelScript,
    /** The script file's path. */
    readonly modelId: string,
  ) {
    this.used = script.turns.map(() => false);
    this.vision = script.vision ?? true;
  }

  /** Builds a model from a script held in memory (validated like a file); for tests. */
  static fromScript(script: ModelScriptInput, name = 'inline-script'): ScriptModel {
    return new ScriptModel(parseModelScript(script, name), name);
  }

  /** How many turns calls have taken so far. */
  get usedTurns(): number {
    return this.used.filter(Boolean).length;
  }

  /** How many turns are still unused. */
  get remainingTurns(): number {
    return this.used.length - this.usedTurns;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const reply = await this.reply(options);
    const content: LanguageModelV3Content[] = [];
    if (reply.text !== '') content.push({ type: 'text', text: reply.text });
    for (const call of reply.toolCalls) {
      content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
    }
    return {
      content,
      finishReason: reply.finishReason,
      usage: reply.usage,
      warnings: [],
      response: { id: `script-${reply.turnNumber}`, modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const reply = await this.reply(options);
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      {
        type: 'response-metadata',
        id: `script-${reply.turnNumber}`,
        modelId: this.modelId,
        timestamp: new Date(),
      },
    ];
    if (reply.text !== '') {
      parts.push({ type: 'text-start', id: TEXT_PART_ID });
      for (const delta of wordChunks(reply.text)) parts.push({ type: 'text-delta', id: TEXT_PART_ID, delta });
      parts.push({ type: 'text-end', id: TEXT_PART_ID });
    }
    for (const call of reply.toolCalls) {
      parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
      parts.push({ type: 'tool-input-delta', id: call.id, delta: call.input });
      parts.push({ type: 'tool-input-end', id: call.id });
      parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
    }
    parts.push({ type: 'finish', usage: reply.usage, finishReason: reply.finishReason });
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return { stream };
  }

  private async reply(options: LanguageModelV3CallOptions): Promise<ScriptReply> {
    options.abortSignal?.throwIfAborted();
    const parsedTag = callTagSchema.safeParse(options.providerOptions?.taskweave);
    const tag = parsedTag.success ? parsedTag.data : {};
    const prompt = promptText(options.prompt);
    const index = this.script.turns.findIndex(
      (turn, turnIndex) => !this.used[turnIndex] && turnMatches(turn, tag, prompt),
    );
    const turn = this.script.turns[index];
    if (turn === undefined) throw new ScriptExhaustedError(tag, this.usedTurns, this.used.length);
    // Taken before the wait so that parallel calls never share a turn.
    this.used[index] = true;

    const latencyMs = turn.latencyMs ?? this.script.latencyMs ?? 0;
    if (latencyMs > 0) {
      try {
        await sleep(latencyMs, options.abortSignal);
      } catch (error) {
        // An aborted call got no reply; its turn stays available for the next one.
        this.used[index] = false;
        throw error;
      }
    } else {
      // A provider's reply always comes from I/O, in a later turn of the event loop than the
      // call: so does this one, however fast.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (turn.error !== undefined) throw this.apiError(turn.error, tag);

    const text = turn.object !== undefined ? JSON.stringify(turn.object) : (turn.text ?? '');
    const toolCalls = (turn.toolCalls ?? []).map((call, callIndex) => ({
      id: call.id ?? `script-${this.instance}-${index + 1}-${callIndex + 1}`,
      name: call.name,
      input: JSON.stringify(call.args),
    }));
    const outputChars =
      text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.input.length, 0);
    const finish = turn.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop');
    return {
      turnNumber: index + 1,
      text,
      toolCalls,
      // The tool definitions go with every request and count like the prompt does.
      usage: usage(estimateTokens(prompt.length + toolDefinitionChars(options)), estimateTokens(outputChars)),
      finishReason: { unified: finish, raw: finish },
    };
  }

  private apiError(error: NonNullable<ScriptTurn['error']>, tag: object): APICallError {
    const responseHeaders: Record<string, string> = { 'content-type': 'application/json' };
    if (error.retryAfter !== undefined) responseHeaders['retry-after'] = String(error.retryAfter);
    return new APICallError({
      message: error.message,
      url: `script:${this.modelId}`,
      requestBodyValues: { taskweave: tag },
      statusCode: error.status,
      responseHeaders,
      responseBody: JSON.stringify({ error: { message: error.message } }),
      isRetryable: isTransientStatus(error.status),
    });
  }
}

/**
 * Reads and validates a script file. A missing, unreadable or malformed file is a
 * ModelConfigError naming the file and the problem.
 */
export async function loadScriptModel(filePath: string): Promise<ScriptModel> {
  let source: string;
  try {
    source = await readFile(filePath, 'utf8');
  } catch (error) {
    const reason =
      isErrnoException(error) && error.code === 'ENOENT' ? 'the file does not exist' : String(error);
    throw new ModelConfigError(`Cannot read the script file ${filePath}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelConfigError(`The script file ${filePath} is not valid JSON: ${reason}`);
  }
  return new ScriptModel(parseModelScript(value, filePath), filePath);
}

function turnMatches(
  turn: ScriptTurn,
  tag: { taskId?: string; agent?: string; phase?: string },
  prompt: string,
): boolean {
  if (turn.task !== undefined && turn.task !== tag.taskId) return false;
  // A subagent runs beside its parent's script: it takes only turns written for its agent, and
  // the parent never takes them.
  if (turn.agent !== tag.agent) return false;
  if (turn.phase !== undefined && turn.phase !== tag.phase) return false;
  // A compaction is asked for by the run, not written in the script's order of steps: it takes
  // only a turn written for it, never one meant for the next step.
  if (tag.phase === 'compact' && turn.phase !== 'compact') return false;
  if (turn.when !== undefined && !prompt.includes(turn.when)) return false;
  return true;
}

/** Word-sized pieces (each word with the space after it) that join back to `text`. */
function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/** Measured once per tool list: a caller sends the same prepared list with every call. */
const toolListChars = new WeakMap<object, number>();

/** The characters of the call's tool definitions (name, description, schema), as sent. */
function toolDefinitionChars(options: LanguageModelV3CallOptions): number {
  const tools = options.tools;
  if (tools === undefined || tools.length === 0) return 0;
  let chars = toolListChars.get(tools);
  if (chars === undefined) {
    chars = JSON.stringify(tools).length;
    toolListChars.set(tools, chars);
  }
  return chars;
}

function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN));
}

function usage(inputTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
