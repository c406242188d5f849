import type { ModelMessage } from 'ai';
import { compactionRecordOf } from '../../agent/compaction.js';
import type { StoredMessage } from '../../store/session-log.js';

/** One line of a session's history as front ends show it. */
export type HistoryEntry =
  | { kind: 'message'; message: StoredMessage }
  | {
      kind: 'compaction';
      /** The stored summary message (its text is the summary). */
      message: StoredMessage;
      /** How many earlier messages of its conversation the summary stands for. */
      replaced: number;
    };

/**
 * A session's stored messages as a reader should see them: each once, in order. A compaction is
 * stored as its summary message followed by copies of the recent messages it kept (a resumed run
 * starts from the summary); here the summary becomes a compaction entry at its place and the
 * copies after it are left out. Each conversation (the top level, each task's) is read on its own.
 */
export function sessionHistory(messages: readonly StoredMessage[]): HistoryEntry[] {
  const byConversation = new Map<string | null, StoredMessage[]>();
  for (const message of messages) {
    const list = byConversation.get(message.taskId) ?? [];
    list.push(message);
    byConversation.set(message.taskId, list);
  }
  const copies = new Set<number>();
  const replaced = new Map<number, number>();
  for (const conversation of byConversation.values()) {
    const keys = conversation.map(messageKey);
    let segmentStart = 0;
    conversation.forEach((message, index) => {
      if (!isCompaction(message)) return;
      const kept = keptCopies(keys, { segmentStart, summary: index });
      for (let offset = 1; offset <= kept; offset++) copies.add(conversation[index + offset]!.id);
      replaced.set(message.id, index - segmentStart - kept);
      segmentStart = index;
    });
  }
  return messages.flatMap((message): HistoryEntry[] => {
    if (copies.has(message.id)) return [];
    const count = replaced.get(message.id);
    return count === undefined
      ? [{ kind: 'message', message }]
      : [{ kind: 'compaction', message, replaced: count }];
  });
}

/** The text of a compaction entry's summary. */
export function compactionSummary(entry: Extract<HistoryEntry, { kind: 'compaction' }>): string {
  const content = entry.message.content;
  if (!Array.isArray(content)) return '';
  const [part] = content as { text?: unknown }[];
  return typeof part?.text === 'string' ? part.text : '';
}

function isCompaction(message: StoredMessage): boolean {
  return compactionRecordOf({ role: message.role, content: message.content } as ModelMessage) !== undefined;
}

/** What identifies a message for matching a copy with its original. */
interface MessageKey {
  role: string;
  json: string;
  /** A tool message's result ids: a loaded conversation may have results added to its copy. */
  callIds: string[];
}

function messageKey(message: StoredMessage): MessageKey {
  const callIds = Array.isArray(message.content)
    ? (message.content as { toolCallId?: unknown }[]).flatMap((part) =>
        typeof part?.toolCallId === 'string' ? [part.toolCallId] : [],
      )
    : [];
  return { role: message.role, json: JSON.stringify(message.content), callIds };
}

function sameMessage(original: MessageKey, copy: MessageKey): boolean {
  if (original.role !== copy.role) return false;
  if (original.role === 'tool') return original.callIds.every((id) => copy.callIds.includes(id));
  return original.json === copy.json;
}

/**
 * How many messages right after the summary copy the last ones before it (back to the segment's
 * start: the conversation's start or the previous summary): the most that all match.
 */
function keptCopies(keys: readonly MessageKey[], at: { segmentStart: number; summary: number }): number {
  const before = at.summary - at.segmentStart;
  const after = keys.length - at.summary - 1;
  for (let count = Math.min(before, after); count > 0; count--) {
    let matches = true;
    for (let offset = 0; offset < count && matches; offset++) {
      matches = sameMessage(keys[at.summary - count + offset]!, keys[at.summary + 1 + offset]!);
    }
    if (matches) return count;
  }
  return 0;
}
