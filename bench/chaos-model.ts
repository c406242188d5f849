/**
 * The chaos model: an AI SDK LanguageModelV3 that misbehaves at random, driven by a seeded PRNG
 * so that every episode replays. Most calls get a sensible reply for the call's context (a tool
 * step, a plan, closing a task, the final answer, a Reason or Observe verdict); the others get
 * one of the misbehaviours below.
 */
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

/** What a call of the chaos model did. */
export const BEHAVIOURS = [
  'good',
  'premature_final',
  'malformed_json',
  'unknown_tool',
  'invalid_args',
  'repeat_forever',
  'empty',
  'truncated',
  'filtered',
  'huge',
  'http_429',
  'http_5xx',
  'stall_first_token',
  'stall_mid_stream',
  'tool_crash',
  'many_calls',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/** A huge reply: a write_file of this many characters. */
const HUGE_CHARS = 1_000_000;
/** Calls in one reply for `many_calls` (above the per-reply cap). */
const MANY_CALLS = 200;

/** mulberry32: a small, fast seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Call = { name: string; args: Record<string, unknown> };
/** What the reply is: text and calls, or a way to fail. */
type Reply =
  | { kind: 'reply'; text: string; calls: Call[]; finish?: 'length' | 'content-filter'; brokenArgs?: boolean }
  | { kind: 'http'; status: number }
  | { kind: 'stall'; afterParts: boolean };

/** Where a call stands, read from its tools, system prompt and tag. */
interface CallContext {
  phase: string;
  json: boolean;
  /** request (top level), task (a plan task), final (the plan's final answer). */
  scope: 'request' | 'task' | 'final';
  canPlan: boolean;
}

export class ChaosModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'chaos';
  readonly modelId = 'chaos';
  readonly supportedUrls = {};
  /** How often each behaviour was chosen. */
  readonly tally = new Map<Behaviour, number>();
  private stuck = false;
  private calls = 0;

  constructor(
    private readonly random: () => number,
    /** The share of calls that misbehave. */
    private readonly chaosRate: number,
  ) {}

  async doGenerate(): Promise<never> {
    throw new Error('The chaos model only streams.');
  }

  async doStream(options: LanguageModelV3CallOptions) {
    this.calls += 1;
    const context = contextOf(options);
    const behaviour = this.choose(context);
    this.tally.set(behaviour, (this.tally.get(behaviour) ?? 0) + 1);
    const reply = this.replyFor(behaviour, context);
    if (reply.kind === 'http') {
      throw new APICallError({
        message: reply.status === 429 ? 'rate limited (chaos)' : 'server error (chaos)',
        url: 'chaos://model',
        requestBodyValues: {},
        statusCode: reply.status,
        responseHeaders: reply.status === 429 ? { 'retry-after': '0' } : {},
        isRetryable: true,
      });
    }
    if (reply.kind === 'stall') return { stream: stalled(reply.afterParts) };
    // A provider never returns tool calls when the request allows none (Reason, Observe).
    const allowed = options.toolChoice?.type === 'none' ? { ...reply, calls: [] } : reply;
    return { stream: finished(streamParts(allowed, context, this.calls)) };
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private choose(context: CallContext): Behaviour {
    if (this.stuck && (context.phase === 'act' || context.phase === 'plan')) return 'repeat_forever';
    if (this.random() >= this.chaosRate) return 'good';
    const choices = BEHAVIOURS.filter((behaviour) => behaviour !== 'good');
    return this.pick(context.json ? choices : choices.filter((choice) => choice !== 'malformed_json'));
  }

  private replyFor(behaviour: Behaviour, context: CallContext): Reply {
    const reply = (text: string, calls: Call[] = []): Reply => ({ kind: 'reply', text, calls });
    switch (behaviour) {
      case 'good':
        return this.goodReply(context);
      case 'premature_final':
        return context.scope === 'request'
          ? reply('Done already.')
          : reply('', [{ name: 'final_answer', args: { answer: 'All done (too early).' } }]);
      case 'malformed_json':
        return reply('{"tool_calls": [{"name": "write_file", "args": {"path": "a.txt", "content": ');
      case 'unknown_tool':
        return reply('', [{ name: 'deploy_to_production', args: { now: true } }]);
      case 'invalid_args':
        return {
          kind: 'reply',
          text: '',
          calls: [{ name: 'write_file', args: { path: 42 } }],
          brokenArgs: true,
        };
      case 'repeat_forever':
        this.stuck = true;
        return reply('', [{ name: 'run_command', args: { command: 'echo stuck' } }]);
      case 'empty':
        return reply(this.random() < 0.5 ? '' : '  \n ');
      case 'truncated':
        return { kind: 'reply', text: 'The answer is', calls: [], finish: 'length' };
      case 'filtered':
        return { kind: 'reply', text: '', calls: [], finish: 'content-filter' };
      case 'huge':
        return this.random() < 0.5
          ? reply('', [{ name: 'write_file', args: { path: 'huge.txt', content: 'x'.repeat(HUGE_CHARS) } }])
          : reply(`Here is everything: ${'y'.repeat(HUGE_CHARS / 4)}`);
      case 'http_429':
        return { kind: 'http', status: 429 };
      case 'http_5xx':
        return { kind: 'http', status: this.pick([500, 502, 503]) };
      case 'stall_first_token':
        return { kind: 'stall', afterParts: false };
      case 'stall_mid_stream':
        return { kind: 'stall', afterParts: true };
      case 'tool_crash':
        return reply('', [{ name: 'run_command', args: { command: 'kill -KILL $$' } }]);
      case 'many_calls':
        return reply(
          '',
          Array.from({ length: MANY_CALLS }, (_, index) => ({
            name: 'read_file',
            args: { path: `missing-${index}.txt` },
          })),
        );
    }
  }

  /** A sensible reply for the call's context. */
  private goodReply(context: CallContext): Reply {
    const reply = (text: string, calls: Call[] = []): Reply => ({ kind: 'reply', text, calls });
    if (context.phase === 'reason') {
      return reply(
        `I will go on.\n\`\`\`json\n${JSON.stringify({ plan: 'Write a file', tools_to_consider: ['write_file'], finish: false })}\n\`\`\``,
      );
    }
    if (context.phase === 'observe') {
      const done = this.random() < 0.4;
      const block = {
        observation: 'The step worked.',
        should_continue: !done,
        final_answer: done ? 'Done.' : null,
      };
      return reply(`Checked.\n\`\`\`json\n${JSON.stringify(block)}\n\`\`\``);
    }
    if (context.scope === 'final')
      return reply('', [{ name: 'final_answer', args: { answer: 'All tasks done.' } }]);
    const work = (): Call =>
      this.pick<Call>([
        {
          name: 'write_file',
          args: { path: `notes/${Math.floor(this.random() * 5)}.txt`, content: 'note\n' },
        },
        { name: 'run_command', args: { command: `echo step ${Math.floor(this.random() * 1000)}` } },
        { name: 'search_code', args: { pattern: 'note' } },
      ]);
    if (context.scope === 'task') {
      return this.random() < 0.5
        ? reply('', [work()])
        : reply('', [{ name: 'task_completed', args: { summary: 'Did the task and checked it.' } }]);
    }
    if (context.phase === 'plan' || (context.canPlan && this.random() < 0.3)) {
      const count = 1 + Math.floor(this.random() * 3);
      const tasks = Array.from({ length: count }, (_, index) => ({
        id: `t${index + 1}`,
        title: `Task ${index + 1}`,
        description: `Write notes/t${index + 1}.txt`,
        depends_on: index > 0 && this.random() < 0.5 ? [`t${index}`] : [],
      }));
      return reply('', [{ name: 'plan_actions', args: { tasks } }]);
    }
    return this.random() < 0.5 ? reply('', [work()]) : reply('The work is done.');
  }
}

function contextOf(options: LanguageModelV3CallOptions): CallContext {
  const tag = options.providerOptions?.taskweave as { phase?: string } | undefined;
  const system = options.prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
  const json = system.includes('# Reply format');
  const names = json
    ? [...system.matchAll(/^## (\S+)$/gm)].map((match) => match[1] ?? '')
    : (options.tools ?? []).map((tool) => tool.name);
  const task = json ? system.includes('"task_completed"?') : names.includes('task_completed');
  const final = json
    ? system.includes('There are no tools in this step')
    : names.length === 1 && names[0] === 'final_answer';
  return {
    phase: tag?.phase ?? 'act',
    json,
    scope: task ? 'task' : final ? 'final' : 'request',
    canPlan: names.includes('plan_actions'),
  };
}

function streamParts(
  reply: Extract<Reply, { kind: 'reply' }>,
  context: CallContext,
  callNumber: number,
): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  let text = reply.text;
  if (context.json && context.phase !== 'reason' && context.phase !== 'observe' && reply.calls.length > 0) {
    // The JSON protocol: the calls (control tools as their fields) are the reply's text.
    const control = (name: string) => reply.calls.find((call) => call.name === name)?.args;
    const toolCalls = reply.calls.filter(
      (call) => call.name !== 'task_completed' && call.name !== 'final_answer',
    );
    text = JSON.stringify({
      tool_calls: toolCalls,
      ...(control('task_completed') ? { task_completed: control('task_completed')?.summary } : {}),
      ...(control('final_answer') ? { final_answer: control('final_answer')?.answer } : {}),
    });
  } else if (
    context.json &&
    context.phase === 'act' &&
    reply.text !== '' &&
    reply.finish === undefined &&
    !reply.text.startsWith('{')
  ) {
    text = JSON.stringify({ tool_calls: [], final_answer: reply.text });
  }
  if (text !== '') {
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' },
    );
  }
  if (!context.json) {
    reply.calls.forEach((call, index) => {
      parts.push({
        type: 'tool-call',
        toolCallId: `chaos-${callNumber}-${index}`,
        toolName: call.name,
        input: reply.brokenArgs ? `${JSON.stringify(call.args).slice(0, -1)},` : JSON.stringify(call.args),
      });
    });
  }
  const unified = reply.finish ?? (reply.calls.length > 0 && !context.json ? 'tool-calls' : 'stop');
  parts.push({
    type: 'finish',
    finishReason: { unified, raw: unified },
    usage: {
      inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 20, text: 20, reasoning: undefined },
    },
  });
  return parts;
}

function finished(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A stream that never finishes: nothing at all, or the start of a reply and then silence. */
function stalled(afterParts: boolean): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      if (!afterParts) return;
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't' });
      controller.enqueue({ type: 'text-delta', id: 't', delta: 'Let me' });
    },
  });
}
