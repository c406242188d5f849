import type { ApiRun } from '../../events/api.js';
import type { ServerEvent } from '../../events/registry.js';
import type { HistoryEntry, Session, StoredMessage } from '../../runtime/index.js';
import { formatArgs } from '../../util/format-args.js';

/** A session as `--json` prints it; snake_case like the events, times in ms since the epoch. */
export interface SessionJson {
  id: string;
  title: string;
  goal: string;
  workspace: string;
  model: string;
  status: Session['status'];
  created_at: number;
  updated_at: number;
}

/** A message as `--json` prints it; `content` is the JSON value it was stored with. */
export interface MessageJson {
  id: number;
  run_id: string;
  role: StoredMessage['role'];
  content: unknown;
  created_at: number;
  /** On a compaction's summary message: how many earlier messages it stands for. */
  compaction?: { messages_replaced: number };
}

/** A history entry as `--json` prints it: a compaction is its summary message, marked. */
export function historyJson(entry: HistoryEntry): MessageJson {
  const json = messageJson(entry.message);
  return entry.kind === 'compaction' ? { ...json, compaction: { messages_replaced: entry.replaced } } : json;
}

/**
 * What `sessions show --json` prints: the session with its runs, messages (each once: a
 * compaction's copies of the recent messages are left out) and (with --events) events.
 */
export interface SessionDetailJson extends SessionJson {
  runs: ApiRun[];
  messages: MessageJson[];
  events?: ServerEvent[];
}

export function sessionJson(session: Session): SessionJson {
  return {
    id: session.id,
    title: session.title,
    goal: session.goal,
    workspace: session.workspace,
    model: session.model,
    status: session.status,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

export function messageJson(message: StoredMessage): MessageJson {
  return {
    id: message.id,
    run_id: message.runId,
    role: message.role,
    content: message.content,
    created_at: message.createdAt,
  };
}

/**
 * The readable text of a stored message's content: a plain string, or the parts of an AI SDK
 * model message (text, reasoning, tool calls and results), or a whole message with `content`.
 */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map(partText)
      .filter((text) => text !== '')
      .join(' ');
  if (isRecord(content) && 'content' in content) return messageText(content.content);
  return JSON.stringify(content) ?? '';
}

function partText(part: unknown): string {
  if (!isRecord(part)) return messageText(part);
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return typeof part.text === 'string' ? part.text : '';
    case 'tool-call':
      return `→ ${String(part.toolName)}(${formatArgs(part.input)})`;
    case 'tool-result':
      return `← ${String(part.toolName)}: ${toolOutputText(part.output)}`;
    default:
      return JSON.stringify(part);
  }
}

/** A tool result's output: `{ type: 'text' | 'json' | 'error-text' | …, value }` in AI SDK 6. */
function toolOutputText(output: unknown): string {
  if (isRecord(output) && 'value' in output) {
    return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
  }
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
