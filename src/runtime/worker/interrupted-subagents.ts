import type { ServerEvent } from '../../events/registry.js';
import type { Store } from '../../store/ports.js';

/** A subagent a killed process left running: its agent, job and the files its file tools changed. */
export interface InterruptedSubagent {
  agent: string;
  job: string;
  files: string[];
}

/**
 * The subagents of the given runs that started and never ended (their process was killed), read
 * from the session's event log. A child's conversation is not stored, so it cannot be continued:
 * the run that continues the session is told about each one instead, and it is never re-run
 * without the model deciding so.
 */
export async function interruptedSubagents(
  store: Store,
  sessionId: string,
  runIds: readonly string[],
): Promise<InterruptedSubagent[]> {
  const runs = new Set(runIds);
  const open = new Map<string, InterruptedSubagent>();
  for (const event of await store.sessions.events(sessionId)) {
    if (!runs.has(event.run_id)) continue;
    const child = childOf(event);
    if (child === undefined) continue;
    if (event.type === 'agent_update' && event.update_type === 'subagent_started') {
      open.set(child, { agent: event.agent, job: event.job, files: [] });
      continue;
    }
    if (event.type === 'agent_update' && event.update_type === 'subagent_ended') {
      open.delete(child);
      continue;
    }
    const target = event.type === 'tool_start' ? (event.args as { path?: unknown } | null)?.path : undefined;
    const started = open.get(child);
    if (started && event.type === 'tool_start' && typeof target === 'string' && FILE_TOOLS.has(event.name))
      if (!started.files.includes(target)) started.files.push(target);
  }
  return [...open.values()];
}

const FILE_TOOLS = new Set(['write_file', 'edit_file']);

function childOf(event: ServerEvent): string | undefined {
  return 'parent_call_id' in event && typeof event.parent_call_id === 'string'
    ? event.parent_call_id
    : undefined;
}
