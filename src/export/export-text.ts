import { parseCommandResult } from '../events/command-result.js';
import type { ExportRun, ExportToolCall, ExportUsage, SessionExport } from './export-schema.js';

/**
 * What the markdown and HTML renderers say the same way: figures, times, how long outputs are
 * cut, which tool calls only signal.
 */

/** Lines of a tool's output an export shows before it cuts the rest (the JSON keeps it whole). */
export const SHOWN_OUTPUT_LINES = 40;
/** Characters of a tool's output shown at most (a minified file is one long line). */
export const SHOWN_OUTPUT_CHARS = 6000;

/**
 * Tool calls that only tell the orchestrator something or ask the user: what they carry is shown
 * where it lands (the task line, the question, the final answer), not as an output.
 */
export const SIGNAL_TOOLS = new Set(['task_completed', 'fail_task', 'request_input', 'final_answer']);

const numbers = new Intl.NumberFormat('en');

/** `1,234 in / 56 out tokens · cost 0.0123` (the cost only where the usage carries one). */
export function usageText(usage: ExportUsage): string {
  const tokens = `${numbers.format(usage.input_tokens)} in / ${numbers.format(usage.output_tokens)} out tokens`;
  return usage.cost === undefined ? tokens : `${tokens} · cost ${costText(usage.cost)}`;
}

/** A cost with the digits that matter for it: `0.0123`, `2.40`. */
export function costText(cost: number): string {
  return cost < 1 ? cost.toFixed(4) : cost.toFixed(2);
}

/** `2026-11-26 20:15:03 UTC`. */
export function timeText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `1.2 s`, `340 ms`. */
export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A long text cut for reading: its first lines, and how much was left out. */
export interface CutText {
  text: string;
  /** Lines left out (0: the text is whole). */
  hiddenLines: number;
  totalLines: number;
}

/** The first SHOWN_OUTPUT_LINES lines (and at most SHOWN_OUTPUT_CHARS characters) of a text. */
export function cutOutput(text: string): CutText {
  const lines = text.replace(/\n$/, '').split('\n');
  const kept = lines.slice(0, SHOWN_OUTPUT_LINES);
  const joined = kept.join('\n');
  if (joined.length <= SHOWN_OUTPUT_CHARS)
    return { text: joined, hiddenLines: lines.length - kept.length, totalLines: lines.length };
  // A line cut in its middle counts as left out.
  const cut = joined.slice(0, SHOWN_OUTPUT_CHARS);
  const wholeLines = cut.split('\n').length - 1;
  return { text: `${cut}…`, hiddenLines: lines.length - wholeLines, totalLines: lines.length };
}

/** What a cut says: `… 120 more lines cut: the whole output is in the JSON export.` */
export function cutNote(cut: CutText): string {
  const lines = cut.hiddenLines === 1 ? '1 more line' : `${numbers.format(cut.hiddenLines)} more lines`;
  return `… ${lines} (of ${numbers.format(cut.totalLines)}) cut: the whole output is in the JSON export (--format json).`;
}

/** The argument that says most about a call (`"npm test"`, `"src/a.ts", 2 edits`). */
export function mainArgument(call: ExportToolCall): string {
  const args =
    typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {};
  if (Array.isArray(args.tasks)) return `${args.tasks.length} task${args.tasks.length === 1 ? '' : 's'}`;
  const key = ['command', 'path', 'pattern', 'question', 'summary', 'answer', 'reason', 'description'].find(
    (name) => typeof args[name] === 'string',
  );
  if (key === undefined) return '';
  const text = String(args[key]).split('\n')[0] ?? '';
  const shortened = text.length > 100 ? `${text.slice(0, 99)}…` : text;
  const edits = Array.isArray(args.edits)
    ? `, ${args.edits.length} edit${args.edits.length === 1 ? '' : 's'}`
    : '';
  return `${shortened}${edits}`;
}

/** The arguments worth showing beside the main one: write_file's content, or all as JSON. */
export function shownArguments(call: ExportToolCall): { label: string; text: string } | undefined {
  const args =
    typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {};
  if (SIGNAL_TOOLS.has(call.name) || call.name === 'plan_actions' || call.name === 'edit_file')
    return undefined;
  if (call.name === 'write_file' && typeof args.content === 'string')
    return { label: `content of ${String(args.path)}`, text: args.content };
  const keys = Object.keys(args);
  if (keys.length === 0 || (keys.length === 1 && mainArgument(call) !== '')) return undefined;
  return { label: 'arguments', text: JSON.stringify(call.args, null, 2) };
}

/** The status mark of a call: ✓ done, ✗ failed, … never ended. */
export function callMark(call: ExportToolCall): string {
  return call.status === 'ok' ? '✓' : call.status === 'error' ? '✗' : '…';
}

/** `created, 14 lines · 3 ms` */
export function callSummary(call: ExportToolCall): string {
  const parts = [
    call.display ?? (call.status === 'running' ? 'never ended' : undefined),
    // A command's display already says how long it ran.
    call.duration_ms === undefined || (call.name === 'run_command' && call.display !== undefined)
      ? undefined
      : durationText(call.duration_ms),
  ];
  return parts.filter((part) => part !== undefined && part !== '').join(' · ');
}

/** The plan task's title in a run, or its id. */
export function taskTitle(document: SessionExport, taskId: string): string {
  for (const plan of document.plans) for (const task of plan.tasks) if (task.id === taskId) return task.title;
  return taskId;
}

/** What a run's status reads as. */
export const STATUS_TEXT: Record<string, string> = {
  running: 'Running (not ended when exported)',
  completed: 'Completed',
  stopped: 'Stopped',
  max_steps: 'Step limit reached',
  failed: 'Failed',
  needs_input: 'Needs input',
};

/**
 * The session's status as `sessions list` shows it: its last run's (completed, stopped…), else
 * the session's own (a session with no run yet).
 */
export function sessionStatusText(document: SessionExport): string {
  return document.runs.at(-1)?.status ?? document.session.status;
}

/** How a run worked: the mode it started in, or `planned` once it made a plan, whatever it started as. */
export function runModeText(document: SessionExport, run: ExportRun): string {
  return document.plans.some((plan) => plan.run_id === run.run_id) ? 'planned' : run.mode;
}

/**
 * A run_command output without the framing the model reads (`Exit code: 0`, `Duration: …`,
 * `--- stdout ---`, an empty stream's `(empty)`): the heading already says how it ended and how
 * long it took. A non-zero exit code stays (a timeout or a kill is in the heading, and the
 * model's advice after it is not for the reader).
 * Undefined for another tool's output or a text that is not a command's result.
 */
export function commandOutputParts(
  call: ExportToolCall,
): { status?: string; stdout: string; stderr: string } | undefined {
  if (call.name !== 'run_command' || call.output === undefined) return undefined;
  const result = parseCommandResult(call.output);
  if (result === undefined) return undefined;
  return {
    ...(result.exitCode !== undefined && result.exitCode !== 0
      ? { status: `Exit code: ${result.exitCode}` }
      : {}),
    stdout: result.stdout.join('\n'),
    stderr: result.stderr.join('\n'),
  };
}
