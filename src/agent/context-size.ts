import { asSchema, type ModelMessage, type Tool as SdkTool } from 'ai';

/** A rough tokens-per-character ratio, the usual one for English text and code. */
export const CHARS_PER_TOKEN = 4;

// Keyed by identity: a sent message never changes, and the tool set of a registry is built once.
const messageChars = new WeakMap<ModelMessage, number>();
const toolChars = new WeakMap<Record<string, SdkTool>, number>();

/** What one model call carries: the system prompt, the tool definitions and the messages. */
export interface ContextParts {
  system: string;
  tools?: Record<string, SdkTool>;
  messages: readonly ModelMessage[];
}

/**
 * An estimate of the input tokens of a call with these parts (characters / CHARS_PER_TOKEN).
 * Each message and each tool set is measured once; later calls only add up the figures.
 */
export function estimateContextTokens(parts: ContextParts): number {
  let chars = parts.system.length + (parts.tools === undefined ? 0 : toolDefinitionChars(parts.tools));
  for (const message of parts.messages) chars += charsOf(message);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The estimated tokens of some messages alone. */
export function estimateMessageTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += charsOf(message);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function charsOf(message: ModelMessage): number {
  let chars = messageChars.get(message);
  if (chars === undefined) {
    chars = JSON.stringify(message.content).length;
    messageChars.set(message, chars);
  }
  return chars;
}

function toolDefinitionChars(tools: Record<string, SdkTool>): number {
  let chars = toolChars.get(tools);
  if (chars === undefined) {
    const definitions = Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      parameters: tool.inputSchema === undefined ? undefined : asSchema(tool.inputSchema).jsonSchema,
    }));
    chars = JSON.stringify(definitions).length;
    toolChars.set(tools, chars);
  }
  return chars;
}
