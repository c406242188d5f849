import { compactionText } from '../../events/compaction-text.js';
import { hookRanText } from '../../events/hook-ran-text.js';
import type { ServerEvent } from '../../events/registry.js';
import { formatDollars } from '../../events/usage-text.js';
import { worktreeText } from '../../events/worktree-text.js';
import { formatArgs } from '../../util/format-args.js';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import { formatDuration } from './relative-time.js';
import { shortenLine } from './table.js';
import { plural, wrapLabelled } from './text-wrap.js';

/** The longest detail an event line shows; the whole event is in `--json`. */
const EVENT_DETAIL_CHARS = 100;

/** `agent_update/agent_start` for agent updates, the bare type (`tool_start`) for the others. */
export function eventKind(event: ServerEvent): string {
  return event.type === 'agent_update' ? `${event.type}/${event.update_type}` : event.type;
}

/** What an event says, on one line and shortened; with `full`, all of it (tool results whole). */
export function eventDetail(event: ServerEvent, { full = false } = {}): string {
  const detail = `${childLabel(event)}${fullDetail(event, full)}`;
  return full ? detail : shortenLine(detail, EVENT_DETAIL_CHARS);
}

/** `explore › ` before a subagent's own events (its start and end name it already). */
function childLabel(event: ServerEvent): string {
  if (!('agent' in event) || typeof event.agent !== 'string') return '';
  if (event.type === 'agent_update' && event.update_type.startsWith('subagent_')) return '';
  return `${event.agent} › `;
}

/** A line of the event log: one event, or a run of text deltas shown as one (`seq` a range). */
interface ListedEvent {
  seq: string;
  event: ServerEvent;
}

type TextDelta = Extract<ServerEvent, { update_type: 'agent_text_delta' }>;

function isTextDelta(event: ServerEvent): event is TextDelta {
  return event.type === 'agent_update' && event.update_type === 'agent_text_delta';
}

/**
 * The log as listed: consecutive text deltas of one step of one task (a streamed reply is
 * logged as tens of them) are joined into one line; every other event keeps its own.
 */
function listEvents(events: readonly ServerEvent[]): ListedEvent[] {
  const listed: ListedEvent[] = [];
  let deltas: TextDelta[] = [];
  const flush = () => {
    const [first] = deltas;
    const last = deltas.at(-1);
    if (first === undefined || last === undefined) return;
    const content = deltas.map((delta) => delta.content).join('');
    listed.push({
      seq: deltas.length === 1 ? String(first.seq) : `${first.seq}–${last.seq}`,
      event: { ...first, content },
    });
    deltas = [];
  };
  for (const event of events) {
    if (!isTextDelta(event)) {
      flush();
      listed.push({ seq: String(event.seq), event });
      continue;
    }
    const previous = deltas.at(-1);
    if (previous !== undefined && (previous.step !== event.step || previous.task_id !== event.task_id))
      flush();
    deltas.push(event);
  }
  flush();
  return listed;
}

/**
 * Logged events one per line as `seq  kind  detail`, the columns aligned (consecutive text
 * deltas of a step joined on one line, its seq a range); with `full`, each detail whole, its
 * further lines indented under the first. On a terminal of `width` columns a shortened detail is
 * cut to the room left on its line.
 */
export function renderEventLines(
  events: readonly ServerEvent[],
  { full = false, width }: { full?: boolean; width?: number } = {},
): string {
  const listed = listEvents(sanitizeForTerminal(events));
  const seqWidth = Math.max(0, ...listed.map((line) => line.seq.length));
  const kindWidth = Math.max(0, ...listed.map((line) => eventKind(line.event).length));
  return listed
    .map(({ seq, event }) => {
      const head = `${seq.padStart(seqWidth)}  ${eventKind(event).padEnd(kindWidth)}  `;
      // On a terminal (`width`) a shortened detail fits on the line after its seq and kind.
      const room = width === undefined ? EVENT_DETAIL_CHARS : Math.max(1, width - head.length);
      const under = ' '.repeat(head.length);
      if (full) {
        const text = eventDetail(event, { full });
        return `${wrapLabelled({ prefix: head, text, continuation: under, width }).join('\n').trimEnd()}\n`;
      }
      const detail = shortenLine(fullDetail(event, false), Math.min(room, EVENT_DETAIL_CHARS));
      return `${`${head}${detail}`.trimEnd()}\n`;
    })
    .join('');
}

function backgroundEnd(event: { state: string; exit_code?: number; stopped_by?: string }): string {
  if (event.state === 'exited') return `exited with code ${event.exit_code}`;
  if (event.state === 'stopped') return `stopped${event.stopped_by ? ` by ${event.stopped_by}` : ''}`;
  return 'killed by a signal';
}

function fullDetail(event: ServerEvent, whole: boolean): string {
  if (event.type !== 'agent_update') {
    switch (event.type) {
      case 'tool_start':
        return `${event.name}(${formatArgs(event.args)})`;
      case 'tool_progress':
        return `${event.name}: ${event.content}`;
      case 'tool_complete':
        return toolEnd(
          `${event.name} ✓ ${formatDuration(event.duration_ms)}`,
          event.display,
          event.result,
          whole,
        );
      case 'tool_error':
        return toolEnd(
          `${event.name} ✗ ${formatDuration(event.duration_ms)}`,
          event.display,
          event.error,
          whole,
        );
      case 'response_complete':
        return withText(event.status, event.final_answer);
      case 'error':
        return `${event.code}: ${event.message}`;
      case 'chat_accepted':
        return event.position === 0
          ? `task ${event.task_id} started`
          : `task ${event.task_id} queued as #${event.position}`;
      case 'approval_mode':
        return `approval ${event.mode} · sandbox ${event.sandbox}`;
      case 'background_started':
        return `${event.command_id} started in the background: ${event.command}`;
      case 'background_output':
        return `${event.command_id}: ${event.lines.at(-1) ?? ''}`;
      case 'background_ended':
        return `${event.command_id} ${backgroundEnd(event)}`;
    }
  }
  switch (event.update_type) {
    case 'checkpoint_restored':
      return restoredDetail(event);
    case 'goal_branch':
    case 'worktree_created':
    case 'task_merged':
    case 'merge_conflict':
    case 'goal_applied':
      return worktreeText(event);
    case 'agent_start':
      return `${event.mode} · ${event.loop} · ${event.model} · up to ${event.max_steps} steps: ${event.goal}`;
    case 'agent_turn_start':
      return `step ${event.step}`;
    case 'agent_reason':
    case 'agent_text_delta':
    case 'agent_observe':
    case 'agent_note':
      return `step ${event.step}: ${event.content}`;
    case 'agent_retry':
      return `attempt ${event.attempt} in ${formatDuration(event.delay_ms)}: ${event.error}`;
    case 'context_compacted':
      return `step ${event.step}: ${compactionText(event)}`;
    case 'model_usage':
      return `step ${event.step} ${event.phase}: ${event.input_tokens} in / ${event.output_tokens} out tokens${event.cost === undefined ? '' : ` · ${formatDollars(event.cost)}`}`;
    case 'budget_exceeded':
      return `step ${event.step}: ${formatDollars(event.spent)} spent of ${formatDollars(event.budget)}`;
    case 'agent_request_input':
      return `${event.request_id}: ${event.question}`;
    case 'approval_requested':
      return `${event.request_id}: ${event.name} ${event.preview.split('\n')[0] ?? ''}`;
    case 'agent_request_input_timeout':
      return event.request_id;
    case 'agent_user_input':
      return `${event.request_id}: ${event.content}`;
    case 'agent_stopped':
      return `at step ${event.step}`;
    case 'final_answer_refused':
      return `step ${event.step}: ${plural(event.remaining, 'task remains', 'tasks remain')}`;
    case 'plan_proposed':
      return `${event.plan_id}: ${event.tasks.map((task) => `[${task.id}] ${task.title}`).join(', ')}`;
    case 'plan_approved':
      return event.plan_id;
    case 'plan_resumed':
      return `${event.plan_id}: ${event.completed.length} of ${event.tasks.length} tasks already completed`;
    case 'plan_rejected':
      return withText(event.plan_id, event.feedback);
    case 'task_started':
      return `[${event.task_id}] ${event.title}`;
    case 'task_completed':
      return `[${event.task_id}] ${event.title}: ${event.summary}`;
    case 'task_failed':
    case 'task_blocked':
      return `[${event.task_id}] ${event.title}: ${event.reason}`;
    case 'task_skipped':
      return `[${event.task_id}] ${event.title}`;
    case 'failure_decision_requested':
      return `${event.request_id}: [${event.task_id}] ${event.reason}${event.blocked.length > 0 ? ` (blocks ${event.blocked.join(', ')})` : ''}`;
    case 'hook_ran':
      return hookRanText(event);
    case 'agent_completion':
      return withText(`${event.status} after ${event.steps} steps`, event.final_answer ?? event.reason);
    case 'subagent_started':
      return `${event.agent} (${event.parent_call_id}): ${event.job}`;
    case 'subagent_ended':
      return withText(
        `${event.agent} (${event.parent_call_id}) ${event.status} after ${plural(event.steps, 'step', 'steps')}`,
        event.answer ?? event.reason,
      );
  }
}

/** A tool's end: its short display (or its result); `whole` adds the entire result below. */
function toolEnd(head: string, display: string | undefined, result: string, whole: boolean): string {
  if (!whole) return `${head} ${display ?? result}`;
  return `${head}${display ? ` ${display}` : ''}\n${result}`;
}

function withText(head: string, text: string | undefined): string {
  return text ? `${head}: ${text}` : head;
}

/** `rewind to #3 · 2 files back, 1 conflict (src/a.ts: was changed since…)`. */
function restoredDetail(event: Extract<ServerEvent, { update_type: 'checkpoint_restored' }>): string {
  const target = event.kind === 'undo' ? `undo #${event.step}` : `${event.kind} to #${event.step}`;
  const files = event.files.filter((file) => file.action !== 'unchanged').length;
  const parts = [`${target} (${event.mode})`, `${files} file${files === 1 ? '' : 's'} put back`];
  if (event.messages > 0) parts.push(`${event.messages} message${event.messages === 1 ? '' : 's'}`);
  if (event.conflicts.length > 0) {
    const [first] = event.conflicts;
    parts.push(
      `${event.conflicts.length} conflict${event.conflicts.length === 1 ? '' : 's'} (${first?.path}: ${first?.reason})`,
    );
  }
  return parts.join(' · ');
}
