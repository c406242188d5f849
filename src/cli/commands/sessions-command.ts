import type { Command } from 'commander';
import { DEFAULT_SESSION_LIST_LIMIT } from '../../runtime/defaults.js';
import { EXIT } from '../exit-codes.js';
import { addStoreOptions, type StoreCliOptions } from '../options.js';
import { parsePositiveInt } from '../usage-error.js';
import type { ExportOptions } from './sessions-export-action.js';
import type { ListOptions } from './sessions-list-action.js';
import type { ShowOptions } from './sessions-show-action.js';
import type { WorkspaceAccess } from './workspace-access.js';

/** Opens the workspace (loaded when a command runs, not for --help) and runs `work` with it. */
async function withWorkspace<T>(options: StoreCliOptions, work: (access: WorkspaceAccess) => Promise<T>) {
  const access = await import('./workspace-access.js');
  // Listing and showing only read: a write-protected database or folder still works.
  return access.withWorkspace(options, { readOnly: true }, work);
}

/** The word `sessions show` takes for the most recently active session. */
const LAST_SESSION = 'last';

/** Adds `taskweave sessions` (list, show, export) to the program. */
export function addSessionsCommand(program: Command, setExitCode: (code: number) => void): void {
  const sessions = program
    .command('sessions')
    .description('the sessions of this workspace: their goals, runs, conversation and event log');

  addStoreOptions(
    sessions
      .command('list', { isDefault: true })
      .description('list sessions, most recently active first')
      .option('-n, --limit <n>', 'the most sessions to list', parsePositiveInt, DEFAULT_SESSION_LIST_LIMIT)
      .option('--json', 'print a JSON array of sessions'),
  ).action(async (options: ListOptions) => {
    const { listSessions } = await import('./sessions-list-action.js');
    await withWorkspace(options, (access) => listSessions(access.sessions, options));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    sessions
      .command('show')
      .description('show a session: its goal, runs, messages and, with --events, its event log')
      .argument('<id>', `the session id (at least 4 characters of its start), or "${LAST_SESSION}"`)
      .option('--events', 'also list the logged events, one per line (a streamed reply on one)')
      .option('--full', 'show messages and events whole (tool results included), not cut to one line')
      .option('--json', 'print the session as JSON, with its runs, messages (and events)'),
  ).action(async (id: string, options: ShowOptions) => {
    const { showSession } = await import('./sessions-show-action.js');
    await withWorkspace(options, (access) => showSession(access, id, options));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    sessions
      .command('export')
      .description(
        'export a session (goal, steps, tool calls, plan, answers, tokens) as markdown, JSON or HTML',
      )
      .argument('<id>', `the session id (at least 4 characters of its start), or "${LAST_SESSION}"`)
      .option('--format <format>', "md, json or html (default: the -o file's extension, else md)")
      .option('-o, --output <file>', 'write the export to this file (whole or not at all) instead of stdout'),
  ).action(async (id: string, options: ExportOptions) => {
    const { exportSessionAction } = await import('./sessions-export-action.js');
    await withWorkspace(options, (access) => exportSessionAction(access, id, options));
    setExitCode(EXIT.completed);
  });
}
