import type { Command } from 'commander';
import { DEFAULT_SESSION_LIST_LIMIT } from '../runtime/defaults.js';
import { compactionSummary, type HistoryEntry, sessionHistory } from '../runtime/session-history.js';
import { apiRun } from '../runtime/wire-shapes.js';
import { shortId } from '../util/short-id.js';
import { sanitizeForTerminal } from '../util/terminal-text.js';
import { renderEventLines } from './event-line.js';
import { EXIT } from './exit-codes.js';
import { addStoreOptions, type StoreCliOptions } from './options.js';
import { formatDuration, relativeTime } from './relative-time.js';
import { historyJson, messageText, type SessionDetailJson, sessionJson } from './session-output.js';
import { renderTable, shortenLine } from './table.js';
import { type Style, styleFor } from './terminal.js';
import { parsePositiveInt } from './usage-error.js';
import type { WorkspaceAccess } from './workspace-access.js';

/** Opens the workspace (loaded when a command runs, not for --help) and runs `work` with it. */
async function withWorkspace<T>(options: StoreCliOptions, work: (access: WorkspaceAccess) => Promise<T>) {
  const access = await import('./workspace-access.js');
  // Listing and showing only read: a write-protected database or folder still works.
  return access.withWorkspace(options, { readOnly: true }, work);
}

/** The widest a goal gets in `sessions list`. */
const GOAL_COLUMN_CHARS = 60;
/** The widest a message gets in `sessions show`; the whole conversation is in `--json`. */
const MESSAGE_CHARS = 100;
/** The word `sessions show` takes for the most recently active session. */
const LAST_SESSION = 'last';

type ListOptions = StoreCliOptions & { json?: boolean; limit: number };
type ShowOptions = StoreCliOptions & { json?: boolean; events?: boolean; full?: boolean };

/** Adds `taskweave sessions` (list, show) to the program. */
export function addSessionsCommand(program: Command, setExitCode: (code: number) => void): void {
  const sessions = program
    .command('sessions')
    .description('the sessions of this workspace: their goals, runs, conversation and event log');

  addStoreOptions(
    sessions
      .command('list')
      .description('list sessions, most recently active first')
      .option('-n, --limit <n>', 'the most sessions to list', parsePositiveInt, DEFAULT_SESSION_LIST_LIMIT)
      .option('--json', 'print a JSON array of sessions'),
  ).action(async (options: ListOptions) => {
    await withWorkspace(options, (access) => listSessions(access, options));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    sessions
      .command('show')
      .description('show a session: its goal, runs, messages and, with --events, its event log')
      .argument('<id>', `the session id (at least 4 characters of its start), or "${LAST_SESSION}"`)
      .option('--events', 'also list every logged event, one per line')
      .option('--full', 'show messages and events whole (tool results included), not cut to one line')
      .option('--json', 'print the session as JSON, with its runs, messages (and events)'),
  ).action(async (id: string, options: ShowOptions) => {
    await withWorkspace(options, (access) => showSession(access, id, options));
    setExitCode(EXIT.completed);
  });
}

async function listSessions(access: WorkspaceAccess, options: ListOptions): Promise<void> {
  const stdout = process.stdout;
  // One more than asked, to tell whether there are more than shown.
  const found = await access.sessions.list({ limit: options.limit + 1 });
  const shown = found.slice(0, options.limit);
  if (options.json) {
    const json = shown.map(({ session, runCount, status }) => ({
      ...sessionJson(session),
      run_count: runCount,
      last_run_status: runCount === 0 ? null : status,
    }));
    stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  if (shown.length === 0) {
    stdout.write('No sessions yet. Start one with: taskweave run "<goal>"\n');
    return;
  }
  const style = styleFor(stdout);
  const now = Date.now();
  const safe = sanitizeForTerminal(shown);
  stdout.write(
    renderTable({
      columns: [
        { header: 'id' },
        { header: 'started' },
        { header: 'status' },
        { header: 'goal' },
        { header: 'runs', align: 'right' },
      ],
      rows: safe.map(({ session, runCount, status }) => [
        shortId(session.id, 'session'),
        relativeTime(session.createdAt, now),
        { text: status, paint: paintRunStatus(status, style) },
        shortenLine(session.goal, GOAL_COLUMN_CHARS),
        String(runCount),
      ]),
      paintHeader: style.dim,
    }),
  );
  if (found.length > options.limit) {
    stdout.write(style.dim(`(the ${options.limit} most recent; --limit <n> lists more)\n`));
  }
}

async function showSession(access: WorkspaceAccess, input: string, options: ShowOptions): Promise<void> {
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
  const now = Date.now();
  const out: string[] = [];
  out.push(`${style.bold(`Session ${session.id}`)} ${style.dim(`· ${session.status}`)}`);
  if (session.title !== session.goal) out.push(`  title:     ${session.title}`);
  out.push(`  goal:      ${session.goal}`);
  out.push(`  workspace: ${session.workspace}`);
  out.push(`  model:     ${session.model}`);
  out.push(
    `  started:   ${relativeTime(session.createdAt, now)}, last active ${relativeTime(session.updatedAt, now)}`,
  );

  out.push('', style.bold(`Runs (${runs.length})`));
  if (runs.length === 0) out.push(style.dim('  none'));
  runs.forEach((run, index) => {
    const took = run.endedAt === null ? '' : `, took ${formatDuration(run.endedAt - run.startedAt)}`;
    out.push(
      `  ${index + 1}. ${run.id}  ${paintRunStatus(run.status, style)(run.status)}  ${run.mode}  ` +
        `${run.steps} step${run.steps === 1 ? '' : 's'}  ${run.inputTokens} in / ${run.outputTokens} out tokens` +
        style.dim(`  started ${relativeTime(run.startedAt, now)}${took}`),
    );
    if (run.goal !== session.goal) out.push(`     goal: ${shortenLine(run.goal, MESSAGE_CHARS)}`);
    if (run.finalAnswer) out.push(`     final answer: ${indent(run.finalAnswer, '       ')}`);
  });

  out.push(...historyLines(history, { full: options.full, style }));

  if (events !== undefined) {
    out.push('', style.bold(`Events (${events.length})`));
    if (events.length === 0) out.push(style.dim('  none logged'));
    else
      out.push(
        ...renderEventLines(events, { full: options.full })
          .trimEnd()
          .split('\n')
          .map((line) => `  ${line}`),
      );
  }
  stdout.write(`${out.join('\n')}\n`);
}

/** The Messages section: each message once, a compaction as one line (its summary with --full). */
function historyLines(history: readonly HistoryEntry[], options: { full?: boolean; style: Style }): string[] {
  const { style } = options;
  const shown = history.filter((entry) => entry.kind === 'message').length;
  const out = ['', style.bold(`Messages (${shown})`)];
  if (history.length === 0) out.push(style.dim('  none'));
  const roleWidth = Math.max(0, ...history.map((entry) => entry.message.role.length));
  for (const entry of history) {
    if (entry.kind === 'compaction') {
      const count = `${entry.replaced} message${entry.replaced === 1 ? '' : 's'}`;
      out.push(style.dim(`  — compacted: ${count} summarised —`));
      if (options.full) out.push(`    ${indent(compactionSummary(entry), '    ')}`);
      continue;
    }
    const text = messageText(entry.message.content);
    out.push(
      `  ${style.cyan(entry.message.role.padEnd(roleWidth))}  ${
        options.full ? indent(text, ' '.repeat(roleWidth + 4)) : shortenLine(text, MESSAGE_CHARS)
      }`,
    );
  }
  return out;
}

function paintRunStatus(status: string, style: Style): (text: string) => string {
  switch (status) {
    case 'completed':
      return style.green;
    case 'failed':
      return style.red;
    case 'running':
      return style.cyan;
    case 'idle':
      return style.dim;
    default:
      return style.yellow;
  }
}

/** Continuation lines of a multi-line text, indented to sit under its first line. */
function indent(text: string, prefix: string): string {
  return text.trimEnd().split('\n').join(`\n${prefix}`);
}
