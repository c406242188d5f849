/** The most `{` positions tried as the start of an unfenced block (replies are short; this bounds the work). */
const MAX_BRACE_STARTS = 64;

const FENCE = /```[A-Za-z]*[^\S\n]*\n([\s\S]*?)```/g;

/** A JSON object found in a reply, and the reply's text without it. */
export interface JsonBlock {
  value: Record<string, unknown>;
  /** The free text around the block, trimmed. */
  text: string;
}

/**
 * Finds the JSON object a model put at the end of a free-text reply: the last fenced block that
 * holds an object, else the whole reply, else the widest `{…}` span ending at the last `}` that
 * parses. Undefined when there is none; the caller then takes the reply as free text.
 */
export function extractJsonBlock(reply: string): JsonBlock | undefined {
  const fenced = [...reply.matchAll(FENCE)].reverse();
  for (const match of fenced) {
    const value = parseObject(match[1] ?? '');
    if (value) return { value, text: without(reply, match.index, match[0].length) };
  }
  const whole = parseObject(reply);
  if (whole) return { value: whole, text: '' };
  const end = reply.lastIndexOf('}');
  let start = reply.indexOf('{');
  for (let tries = 0; start !== -1 && start < end && tries < MAX_BRACE_STARTS; tries++) {
    const value = parseObject(reply.slice(start, end + 1));
    if (value) return { value, text: without(reply, start, end + 1 - start) };
    start = reply.indexOf('{', start + 1);
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim());
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function without(text: string, start: number, length: number): string {
  return `${text.slice(0, start)}${text.slice(start + length)}`.trim();
}

/** A string field of a block, trimmed; undefined when absent, null, empty or not a string. */
export function textField(block: JsonBlock | undefined, key: string): string | undefined {
  const value = block?.value[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
