import type { AgentUpdateOf } from './registry.js';

/** A `context_compacted` event in words, as every front end shows it. */
export function compactionText(event: AgentUpdateOf<'context_compacted'>): string {
  return (
    `context compacted: ${event.messages_before} → ${event.messages_after} messages, ` +
    `~${event.tokens_before} → ~${event.tokens_after} tokens (~${event.tokens_saved} saved per call)`
  );
}
