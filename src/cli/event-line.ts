import type { ServerEvent } from '../events/registry.js';
import { formatArgs } from '../util/format-args.js';
import { formatDuration } from './relative-time.js';
import { shortenLine } from './table.js';

/** The longest detail an event line shows; the whole event is in `--json`. */
const EVENT_DETAIL_CHARS = 100;

/** `agent_update/agent_start` for agent updates, the bare type (`tool_start`) for the others. */
export function eventKind(event: ServerEvent): string {
  return event.type === 'agent_update' ? `${event.type}/${event.update_type}` : event.type;
}

/** What an event says, on one line and shortened. */
export function eventDetail(event: ServerEvent): string {
  return shortenLine(fullDetail(event), EVENT_DETAIL_CHARS);
}

/** Logged events one per line as `seq  kind  detail`, the columns aligned. */
export function renderEventLines(events: readonly ServerEvent[]): string {
  const seqWidth = Math.max(0, ...events.map((event) => String(event.seq).length));
  const kindWidth = Math.max(0, ...events.map((event) => eventKind(event).length));
  return events
    .map((event) => {
      const line = `${String(event.seq).padStart(seqWidth)}  ${eventKind(event).padEnd(kindWidth)}  ${eventDetail(event)}`;
      return `${line.trimEnd()}\n`;
    })
    .join('');
}

function fullDetail(event: ServerEvent): string {
  if (event.type !== 'agent_update') {
    switch (event.type) {
      case 'tool_start':
        return `${event.name}(${formatArgs(event.args)})`;
      case 'tool_progress':
        return `${event.name}: ${event.content}`;
      case 'tool_complete':
        return `${event.name} ✓ ${formatDuration(event.duration_ms)} ${event.display ?? event.result}`;
      case 'tool_error':
        return `${event.name} ✗ ${formatDuration(event.duration_ms)} ${event.display ?? event.error}`;
      case 'response_complete':
        return withText(event.status, event.final_answer);
      case 'error':
        return `${event.code}: ${event.message}`;
      case 'chat_accepted':
        return event.position === 0
          ? `task ${event.task_id} started`
          : `task ${event.task_id} queued as #${event.position}`;
    }
  }
  switch (event.update_type) {
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
    case 'model_usage':
      return `step ${event.step} ${event.phase}: ${event.input_tokens} in / ${event.output_tokens} out tokens`;
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
      return `step ${event.step}: ${event.remaining} task(s) remain`;
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
    case 'agent_completion':
      return withText(`${event.status} after ${event.steps} steps`, event.final_answer ?? event.reason);
  }
}

function withText(head: string, text: string | undefined): string {
  return text ? `${head}: ${text}` : head;
}
