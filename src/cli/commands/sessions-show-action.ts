/** What `taskweave sessions show` prints: loaded when it runs. */
import { formatDollars } from '../../events/usage-text.js';
import { compactionSummary, type HistoryEntry, sessionHistory } from '../../runtime/history.js';
import { apiRun } from '../../runtime/wire-shapes.js';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import type { StoreCliOptions } from '../options.js';
import { renderEventLines } from '../render/event-line.js';
import { formatDuration, relativeTime } from '../render/relative-time.js';
import { paintRunStatus } from '../render/run-status-style.js';
import { historyJson, messageText, type SessionDetailJson, sessionJson } from '../render/session-output.js';
import { shortenLine } from '../render/table.js';
import { type Style, styleFor, terminalColumns } from '../render/terminal.js';
import { wrapLabelled } from '../render/text-wrap.js';
import type { WorkspaceAccess } from './workspace-access.js';

export type ShowOptions = StoreCliOptions & { json?: boolean; events?: boolean; full?: boolean };

/** The widest a message gets in `sessions show`; the whole conversation is in `--json`. */
const MESSAGE_CHARS = 100;

/** Prints one session: its goal, runs, messages and (with --events) its event log; or JSON. */
export async function showSession(
  access: WorkspaceAccess,
  input: string,
  options: ShowOptions,
): Promise<void> {
  const detail = await access.sessions.detail(input, { events: options.events });
  const stdout = process.stdout;
  // JSON escapes control characters itself; the text below is for the terminal.
  const { session, runs, messages, events } = options.json ? detail : sanitizeForTerminal(detail);
  const history = sessionHistory(messages);
  if (options.json) {
    const json: SessionDetailJson = {
      ...sessionJson(session),
      runs: runs.map(apiRun),
      messages: history.map(historyJson),
      ...(events === undefined ? {} : { events }),
    };
    stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const style = styleFor(stdout);
  const width = terminalColumns(stdout);
  const block = (prefix: string, text: string, continuation: string) =>
    wrapLabelled({ prefix, text, continuation, width });
  const now = Date.now();
  const out: string[] = [];
  out.push(`${style.bold(`Session ${session.id}`)} ${style.dim(`· ${session.status}`)}`);
  const label = '             ';
  if (session.title !== session.goal) out.push(...block('  title:     ', session.title, label));
  out.push(...block('  goal:      ', session.goal, label));
  out.push(...block('  workspace: ', session.workspace, label));
  out.push(...block('  model:     ', session.model, label));
  out.push(
    `  started:   ${relativeTime(session.createdAt, now)}, last active ${relativeTime(session.updatedAt, now)}`,
  );

  out.push('', style.bold(`Runs (${runs.length})`));
  if (runs.length === 0) out.push(style.dim('  none'));
  runs.forEach((run, index) => {
    const took = run.endedAt === null ? '' : `, took ${formatDuration(run.endedAt - run.startedAt)}`;
    const figures =
      `${run.mode}  ${run.steps} step${run.steps === 1 ? '' : 's'}  ` +
      `${run.inputTokens} in / ${run.outputTokens} out tokens` +
      (run.cost === null ? '' : `  ${formatDollars(run.cost)}`);
    const head = `  ${index + 1}. ${run.id}  ${paintRunStatus(run.status, style)(run.status)}  ${figures}`;
    const started = `started ${relativeTime(run.startedAt, now)}${took}`;
    const plain = `  ${index + 1}. ${run.id}  ${run.status}  ${figures}  ${started}`;
    // On a narrow terminal the times go on a line of their own rather than wrap mid-word.
    if (width !== undefined && plain.length > width) out.push(head, style.dim(`     ${started}`));
    else out.push(`${head}${style.dim(`  ${started}`)}`);
    if (run.goal !== session.goal)
      out.push(...block('     goal: ', shortenLine(run.goal, MESSAGE_CHARS), '           '));
    if (run.finalAnswer) out.push(...block('     final answer: ', run.finalAnswer, '       '));
  });

  out.push(...historyLines(history, { full: options.full, style, width }));

  if (events !== undefined) {
    out.push('', style.bold(`Events (${events.length})`));
    if (events.length === 0) out.push(style.dim('  none logged'));
    else
      out.push(
        ...renderEventLines(events, {
          full: options.full,
          width: width === undefined ? undefined : width - 2,
        })
          .trimEnd()
          .split('\n')
          .map((line) => `  ${line}`),
      );
  }
  stdout.write(`${out.join('\n')}\n`);
}

/** The Messages section: each message once, a compaction as one line (its summary with --full). */
function historyLines(
  history: readonly HistoryEntry[],
  options: { full?: boolean; style: Style; width?: number },
): string[] {
  const { style, width } = options;
  const shown = history.filter((entry) => entry.kind === 'message').length;
  const out = ['', style.bold(`Messages (${shown})`)];
  if (history.length === 0) out.push(style.dim('  none'));
  const roleWidth = Math.max(0, ...history.map((entry) => entry.message.role.length));
  for (const entry of history) {
    if (entry.kind === 'compaction') {
      const count = `${entry.replaced} message${entry.replaced === 1 ? '' : 's'}`;
      out.push(style.dim(`  — compacted: ${count} summarised —`));
      if (options.full)
        out.push(
          ...wrapLabelled({ prefix: '    ', text: compactionSummary(entry), continuation: '    ', width }),
        );
      continue;
    }
    const text = messageText(entry.message.content);
    const role = entry.message.role.padEnd(roleWidth);
    const room = width === undefined ? MESSAGE_CHARS : Math.min(MESSAGE_CHARS, width - roleWidth - 4);
    const rows = options.full
      ? wrapLabelled({ prefix: `  ${role}  `, text, continuation: ' '.repeat(roleWidth + 4), width })
      : [`  ${role}  ${shortenLine(text, room)}`];
    // The role is painted after wrapping, so that its colour codes count for no width.
    out.push(`  ${style.cyan(role)}${rows[0]!.slice(2 + role.length)}`, ...rows.slice(1));
  }
  return out;
}
