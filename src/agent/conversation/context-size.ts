import { asSchema, type ModelMessage, type Tool as SdkTool } from 'ai';
import { mapFor } from '../../util/nested-map.js';

/** A rough tokens-per-character ratio, the usual one for English text and code. */
export const CHARS_PER_TOKEN = 4;
/**
 * What an image is counted as: the tokens providers bill for one at the largest size taskweave
 * sends (Anthropic counts width × height / 750, about 1,600 at its 1.15-megapixel cap).
 */
export const IMAGE_TOKENS = 1_600;

// Keyed by identity: a sent message never changes, the tool set of a registry is built once,
// and a tool's definition is shared by the registries of every plan task (modelToolsFor).
const messageChars = new WeakMap<ModelMessage, number>();
const toolSetChars = new WeakMap<Record<string, SdkTool>, number>();
const toolChars = new WeakMap<SdkTool, Map<string, number>>();

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
    let images = 0;
    // An image's bytes (a tool result's image in base64 too) are not text the model reads:
    // counted as IMAGE_TOKENS each, not spelled out.
    chars = JSON.stringify(message.content, (_key, value: unknown) => {
      if (isImageData(value)) {
        images++;
        return { type: value.type };
      }
      if (!(value instanceof Uint8Array)) return value;
      images++;
      return '';
    }).length;
    chars += images * IMAGE_TOKENS * CHARS_PER_TOKEN;
    messageChars.set(message, chars);
  }
  return chars;
}

function isImageData(value: unknown): value is { type: string; data: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    ((value as { type?: unknown }).type === 'image-data' || (value as { type?: unknown }).type === 'media') &&
    typeof (value as { data?: unknown }).data === 'string'
  );
}

/** The characters of the tool definitions as a JSON array of { name, description, parameters }. */
function toolDefinitionChars(tools: Record<string, SdkTool>): number {
  let chars = toolSetChars.get(tools);
  if (chars === undefined) {
    const entries = Object.entries(tools);
    // The brackets and the commas between the definitions.
    chars = 2 + Math.max(0, entries.length - 1);
    for (const [name, tool] of entries) chars += definitionChars(name, tool);
    toolSetChars.set(tools, chars);
  }
  return chars;
}

function definitionChars(name: string, tool: SdkTool): number {
  const byName = mapFor(toolChars, tool);
  let chars = byName.get(name);
  if (chars === undefined) {
    chars = JSON.stringify({
      name,
      description: tool.description,
      parameters: tool.inputSchema === undefined ? undefined : asSchema(tool.inputSchema).jsonSchema,
    }).length;
    byName.set(name, chars);
  }
  return chars;
}
