/** One content block of an MCP tool result, as far as taskweave reads it. */
interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/**
 * An MCP tool result as text for the model: text blocks as they are, embedded text resources
 * with their URI, other blocks (images, audio, binary resources) named but not inlined;
 * structured content as JSON when there is no text.
 */
export function mcpResultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const parts = blocks.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text ?? '';
      case 'resource':
        return block.resource?.text !== undefined
          ? `[resource ${block.resource.uri ?? ''}]\n${block.resource.text}`
          : `[binary resource ${block.resource?.uri ?? ''} (${block.resource?.mimeType ?? 'unknown type'}), not shown]`;
      case 'resource_link':
        return `[resource link ${block.name ?? ''} ${block.uri ?? ''}]`;
      default:
        return `[${block.type}${block.mimeType ? ` (${block.mimeType})` : ''}, not shown]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent, null, 2);
  return parts.join('\n') || '(no content)';
}

/** The longest one-line summary of an MCP result shown beside its call. */
export const MCP_DISPLAY_CHARS = 160;

/**
 * An MCP result's text as one line for the user, beside its call: its first non-blank line, cut
 * to `maxChars`, with how many more lines there are.
 */
export function mcpResultSummary(text: string, maxChars = MCP_DISPLAY_CHARS): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const first = (lines[0] ?? '(no content)').trim();
  const cut = first.length <= maxChars ? first : `${first.slice(0, maxChars - 1)}…`;
  const more = lines.length - 1;
  return more > 0 ? `${cut} (+${more} ${more === 1 ? 'line' : 'lines'})` : cut;
}
