import type { AgentUpdateOf } from './registry.js';

/** A `context_compacted` event in words, as every front end shows it. */
export function compactionText(event: AgentUpdateOf<'context_compacted'>): string {
  const images =
    event.images_dropped === undefined
      ? ''
      : `${event.images_dropped} earlier image${event.images_dropped === 1 ? '' : 's'} dropped, `;
  return (
    `context compacted: ${images}${event.messages_before} → ${event.messages_after} messages, ` +
    `~${event.tokens_before} → ~${event.tokens_after} tokens (~${event.tokens_saved} saved per call)`
  );
}
