import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * A prompt's blocks as the goal's text: text as it is, a resource link as its URI, an embedded
 * resource's text under its URI (the prompt capabilities say only these are sent).
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`@${block.uri}`);
    else if (block.type === 'resource' && 'text' in block.resource)
      parts.push(`<file uri="${block.resource.uri}">\n${block.resource.text}\n</file>`);
  }
  return parts.join('\n');
}
