/** What `taskweave sessions list` prints: loaded when it runs (no session history, no schemas). */

import { formatDollars, formatTokenCount } from '../../events/usage-text.js';
import type { SessionSummary } from '../../runtime/books.js';
import { shortId } from '../../util/short-id.js';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import type { StoreCliOptions } from '../options.js';
import { relativeTime } from '../render/relative-time.js';
import { paintRunStatus } from '../render/run-status-style.js';
import { sessionJson } from '../render/session-output.js';
import { renderTable, shortenLine } from '../render/table.js';
import { styleFor, terminalColumns } from '../render/terminal.js';

export type ListOptions = StoreCliOptions & { json?: boolean; limit: number };

/** Where a listing reads the sessions: the runtime's session book, or the quick path's rows. */
export interface SessionSource {
  list(options: { limit?: number }): Promise<SessionSummary[]>;
}

/** The widest a goal gets in `sessions list`. */
const GOAL_COLUMN_CHARS = 60;

/** Prints the most recently active sessions: a table, or a JSON array with --json. */
export async function listSessions(source: SessionSource, options: ListOptions): Promise<void> {
  const stdout = process.stdout;
  // One more than asked, to tell whether there are more than shown.
  const found = await source.list({ limit: options.limit + 1 });
  const shown = found.slice(0, options.limit);
  if (options.json) {
    const json = shown.map(({ session, runCount, status, inputTokens, outputTokens, cost }) => ({
      ...sessionJson(session),
      run_count: runCount,
      last_run_status: runCount === 0 ? null : status,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost,
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
        { header: 'goal', fit: true },
        { header: 'runs', align: 'right' },
        { header: 'tokens', align: 'right' },
        { header: 'cost', align: 'right' },
      ],
      rows: safe.map(({ session, runCount, status, inputTokens, outputTokens, cost }) => [
        shortId(session.id, 'session'),
        relativeTime(session.createdAt, now),
        { text: status, paint: paintRunStatus(status, style) },
        shortenLine(session.goal, GOAL_COLUMN_CHARS),
        String(runCount),
        formatTokenCount(inputTokens + outputTokens),
        cost === null ? '—' : formatDollars(cost),
      ]),
      paintHeader: style.dim,
      width: terminalColumns(stdout),
    }),
  );
  if (found.length > options.limit) {
    stdout.write(style.dim(`(the ${options.limit} most recent; --limit <n> lists more)\n`));
  }
}
