import type { EventPayload } from '../../events/registry.js';

/**
 * How long the journal holds streamed events before writing them on their own: at most one
 * commit per this interval while a model streams, and the lag a front end sees on them.
 */
export const STREAMED_FLUSH_MS = 50;

/**
 * Whether an event is part of a stream (a text delta, a tool's progress line): many, small, and
 * not needed by a resumed run (the text ends up in the stored conversation, the tool's output in
 * its result). The journal groups them instead of committing each.
 */
export function isStreamedEvent(payload: EventPayload): boolean {
  if (payload.type === 'tool_progress') return true;
  return payload.type === 'agent_update' && payload.update_type === 'agent_text_delta';
}
