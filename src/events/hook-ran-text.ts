import type { AgentUpdateOf } from './registry.js';

/**
 * One line about a hook that ran, for the terminal and the web UI alike:
 * `beforeTool hook refused run_command: "./no-push.sh" exited with 1: pushing is not allowed`.
 */
export function hookRanText(event: AgentUpdateOf<'hook_ran'>): string {
  const command = JSON.stringify(
    event.command.length > 60 ? `${event.command.slice(0, 59)}…` : event.command,
  );
  const outcome = event.timed_out
    ? `timed out after ${Math.round(event.duration_ms)} ms`
    : event.exit_code === null
      ? 'could not run'
      : event.exit_code === 0
        ? `ran in ${Math.round(event.duration_ms)} ms`
        : `exited with ${event.exit_code}`;
  const refused = event.hook === 'beforeTool' && event.exit_code !== 0;
  const head = refused
    ? `${event.hook} hook refused ${event.tool ?? 'the call'}`
    : `${event.hook} hook${event.tool ? ` (${event.tool})` : ''}`;
  return `${head}: ${command} ${outcome}${event.message ? `: ${event.message}` : ''}`;
}
