import type { ModelMessage, ToolContent } from 'ai';

/** The tool results of this many most recent steps are sent whole; older ones are masked. */
export const KEEP_RECENT_TOOL_STEPS = 3;
/** Outputs up to this many characters are sent whole at any age: a stub would save nothing. */
export const MASK_MIN_OUTPUT_CHARS = 300;
/** How much of a masked output its stub keeps, to remind the model what it was. */
const MASK_PREVIEW_CHARS = 100;

/** What masking needs to know about the tools: whether calling one again only reads. */
export interface MaskOptions {
  isReadOnly(toolName: string): boolean;
  /** Default KEEP_RECENT_TOOL_STEPS. */
  keepRecent?: number;
}

// Keyed by the original message: a masked message is built once, and the same object is sent at
// every later step, instead of a new copy per call.
const maskedCache = new WeakMap<ModelMessage, ModelMessage>();

/**
 * The messages as the model is sent them: the outputs of tool results older than the last
 * `keepRecent` steps (tool messages) are replaced by a short stub that says what the output was and
 * how to get it again; the calls themselves stay, with their arguments. The conversation itself
 * (and the store) keep every output whole. Results in the JSON protocol (user messages) are not
 * masked.
 */
export function maskOldToolOutputs(messages: ModelMessage[], options: MaskOptions): ModelMessage[] {
  const keep = options.keepRecent ?? KEEP_RECENT_TOOL_STEPS;
  let kept = 0;
  let maskBefore = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role !== 'tool') continue;
    if (kept === keep) {
      maskBefore = index + 1;
      break;
    }
    kept += 1;
  }
  if (maskBefore < 0) return messages;
  return messages.map((message, index) => {
    if (index >= maskBefore || message.role !== 'tool') return message;
    let masked = maskedCache.get(message);
    if (!masked) {
      masked = { ...message, content: maskContent(message.content, options) };
      maskedCache.set(message, masked);
    }
    return masked;
  });
}

function maskContent(content: ToolContent, options: MaskOptions): ToolContent {
  return content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const { output } = part;
    if (
      (output.type !== 'text' && output.type !== 'error-text') ||
      output.value.length <= MASK_MIN_OUTPUT_CHARS
    )
      return part;
    return { ...part, output: { type: output.type, value: maskStub(part.toolName, output.value, options) } };
  });
}

function maskStub(toolName: string, output: string, options: MaskOptions): string {
  const preview = output.slice(0, MASK_PREVIEW_CHARS).replace(/\s+/g, ' ').trim();
  const again = options.isReadOnly(toolName)
    ? `To read it again, call ${toolName} again with the same arguments.`
    : `To see it again, repeat the call (it is not read-only: only if you need the output).`;
  return `[Output masked to keep the context small: ${output.length} characters, beginning "${preview}…". ${again}]`;
}
