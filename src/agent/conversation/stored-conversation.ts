import { type ModelMessage, modelMessageSchema, type ToolResultPart } from 'ai';
import type { ImageLog, SessionLog } from '../../store/ports.js';
import { loadedContent } from '../state/image-parts.js';
import { compactionRecordOf } from './compaction-record.js';

/** What a call whose result was never recorded anywhere gets as its result. */
export const UNKNOWN_RESULT =
  'The process ended while this call was running; its effect is unknown. Check before repeating it.';

/**
 * Loads a stored conversation (a session's top level, or one task's) so that it can be
 * continued: from its last compaction when it was compacted. A process that died between running tool calls and saving their results leaves
 * calls without results, which providers refuse: each gets its result back from the event log
 * (written before every tool_complete is announced) or is marked as of unknown effect. A repair
 * at the end is stored at once, so that later messages follow it in order.
 */
export async function loadConversation(
  sessions: SessionLog,
  sessionId: string,
  taskId: string | null,
  images: ImageLog,
): Promise<ModelMessage[]> {
  const all = await sessions.messages(sessionId, { taskId });
  const parsed: ModelMessage[] = [];
  for (const message of all)
    parsed.push(
      modelMessageSchema.parse({ role: message.role, content: await loadedContent(message.content, images) }),
    );
  // After a compaction, the conversation goes on from its summary message (stored after the
  // messages it replaced, with the recent ones again after it).
  const from = lastCompaction(parsed);
  const stored = all.slice(from);
  const messages = parsed.slice(from);
  const logged = await loggedResults(sessions, sessionId);
  const repaired: ModelMessage[] = [];
  for (const [index, message] of messages.entries()) {
    repaired.push(message);
    const calls = message.role === 'assistant' && Array.isArray(message.content) ? message.content : [];
    const unanswered = calls.filter(
      (part) => part.type === 'tool-call' && !answers(messages[index + 1], part.toolCallId),
    );
    if (unanswered.length === 0) continue;
    const results: ToolResultPart[] = unanswered.flatMap((part) =>
      part.type === 'tool-call' ? [resultFor(part.toolCallId, part.toolName, logged)] : [],
    );
    const next = messages[index + 1];
    if (next?.role === 'tool') {
      next.content.push(...results);
      continue;
    }
    const recovery: ModelMessage = { role: 'tool', content: results };
    repaired.push(recovery);
    if (index === messages.length - 1) {
      const last = stored[index]!;
      await sessions.appendMessage(sessionId, last.runId, 'tool', recovery.content, taskId ? { taskId } : {});
    }
  }
  return repaired;
}

function lastCompaction(messages: ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (compactionRecordOf(messages[index]) !== undefined) return index;
  }
  return 0;
}

function answers(message: ModelMessage | undefined, toolCallId: string): boolean {
  return (
    message?.role === 'tool' &&
    message.content.some((part) => part.type === 'tool-result' && part.toolCallId === toolCallId)
  );
}

async function loggedResults(
  sessions: SessionLog,
  sessionId: string,
): Promise<Map<string, { value: string; isError: boolean }>> {
  const logged = new Map<string, { value: string; isError: boolean }>();
  for (const event of await sessions.events(sessionId)) {
    if (event.type === 'tool_complete') logged.set(event.call_id, { value: event.result, isError: false });
    if (event.type === 'tool_error') logged.set(event.call_id, { value: event.error, isError: true });
  }
  return logged;
}

function resultFor(
  toolCallId: string,
  toolName: string,
  logged: Map<string, { value: string; isError: boolean }>,
): ToolResultPart {
  const result = logged.get(toolCallId);
  return {
    type: 'tool-result',
    toolCallId,
    toolName,
    output: result
      ? { type: result.isError ? 'error-text' : 'text', value: result.value }
      : { type: 'error-text', value: UNKNOWN_RESULT },
  };
}
