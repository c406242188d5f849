import type { LanguageModelV3, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { InvalidPromptError, type ModelMessage, modelMessageSchema } from 'ai';
import { convertToLanguageModelPrompt } from 'ai/internal';

/*
 * The AI SDK validates the whole message history with zod and converts every message to the
 * provider's format on every call: in a long run that was about half of the loop's CPU, growing
 * with the conversation. Here each message is validated once, the first time it is sent, and
 * converted once (by the SDK's own conversion); later calls reuse both. Messages are keyed by
 * identity: a message is never changed after it has been sent (a changed one is a new object).
 */

const validated = new WeakSet<ModelMessage>();

/** A message and the tool messages after it: the unit the SDK converts (it joins tool results). */
interface ConvertedGroup {
  members: ModelMessage[];
  converted: LanguageModelV3Message[];
}

const convertedGroups = new WeakMap<ModelMessage, ConvertedGroup>();

/**
 * The provider prompt for a system text and messages, as the SDK would build it: the system
 * message first (when given), then every message converted. Throws the SDK's InvalidPromptError
 * for a message that is not a valid ModelMessage, and its MissingToolResultsError for a tool call
 * without a result.
 */
export async function preparePrompt(options: {
  system: string | undefined;
  messages: readonly ModelMessage[];
  model: LanguageModelV3;
  signal?: AbortSignal;
}): Promise<LanguageModelV3Prompt> {
  const { messages } = options;
  if (messages.length === 0)
    throw new InvalidPromptError({ prompt: messages, message: 'messages must not be empty' });
  for (const message of messages) validateOnce(message);
  const prompt: LanguageModelV3Prompt =
    options.system === undefined ? [] : [{ role: 'system', content: options.system }];
  let supportedUrls: Record<string, RegExp[]> | undefined;
  for (const group of groups(messages)) {
    const first = group[0]!;
    let cached = convertedGroups.get(first);
    if (cached === undefined || !sameMembers(cached.members, group)) {
      supportedUrls ??= await options.model.supportedUrls;
      const converted = await convertToLanguageModelPrompt({
        prompt: { messages: group },
        supportedUrls,
        download: undefined,
        abortSignal: options.signal,
      });
      cached = { members: group, converted };
      convertedGroups.set(first, cached);
    }
    prompt.push(...cached.converted);
  }
  return prompt;
}

function validateOnce(message: ModelMessage): void {
  if (validated.has(message)) return;
  // A text message (a task's prompt, rebuilt every step) is valid as it is: no schema to walk.
  if (isPlainText(message)) return;
  const parsed = modelMessageSchema.safeParse(message);
  if (!parsed.success) {
    throw new InvalidPromptError({
      prompt: message,
      message: 'The messages do not match the ModelMessage[] schema.',
      cause: parsed.error,
    });
  }
  validated.add(message);
}

function isPlainText(message: ModelMessage): boolean {
  if (message.role !== 'user' && message.role !== 'system') return false;
  if (typeof message.content !== 'string') return false;
  for (const key in message) if (key !== 'role' && key !== 'content') return false;
  return true;
}

function groups(messages: readonly ModelMessage[]): ModelMessage[][] {
  const result: ModelMessage[][] = [];
  for (const message of messages) {
    const last = result.at(-1);
    if (message.role === 'tool' && last !== undefined) last.push(message);
    else result.push([message]);
  }
  return result;
}

function sameMembers(a: readonly ModelMessage[], b: readonly ModelMessage[]): boolean {
  return a.length === b.length && a.every((message, index) => message === b[index]);
}
