// `taskweave tasks list` and `taskweave sessions list` answered without the CLI's parser or the
// store's ORM: bin/taskweave.js tries this first for those two commands. It takes only the
// listing's own options, spelled as `--help` shows them; anything else (another option, a
// missing database, one of another version) answers false and the full CLI runs instead, so
// both paths print the same (the listing actions are shared; a test compares the rows).

import { DEFAULT_QUEUE, DEFAULT_SESSION_LIST_LIMIT, readQuickListing } from '../runtime/quick-listing.js';
import { listSessions } from './commands/sessions-list-action.js';
import { listTasks } from './commands/tasks-list-action.js';
import { guardClosedOutput } from './render/output-closed.js';

interface Parsed {
  command: 'tasks' | 'sessions';
  cwd: string;
  db?: string;
  json: boolean;
  all: boolean;
  queue: string;
  limit: number;
}

/** The options of each listing: flags, and options that take a value. */
const FLAGS = {
  tasks: { '-a': 'all', '--all': 'all', '--json': 'json' },
  sessions: { '--json': 'json' },
} as const;
const VALUED = {
  tasks: { '-q': 'queue', '--queue': 'queue', '-C': 'cwd', '--cwd': 'cwd', '--db': 'db' },
  sessions: { '-n': 'limit', '--limit': 'limit', '-C': 'cwd', '--cwd': 'cwd', '--db': 'db' },
} as const;

/** The listing argv asks for, or undefined when it asks for anything this path does not take. */
export function parseListing(argv: string[]): Parsed | undefined {
  const [command, ...rest] = argv.slice(2);
  if (command !== 'tasks' && command !== 'sessions') return undefined;
  if (rest[0] === 'list') rest.shift();
  const parsed: Parsed = {
    command,
    cwd: process.cwd(),
    json: false,
    all: false,
    queue: DEFAULT_QUEUE,
    limit: DEFAULT_SESSION_LIST_LIMIT,
  };
  const flags: Record<string, string> = FLAGS[command];
  const valued: Record<string, string> = VALUED[command];
  for (let at = 0; at < rest.length; at += 1) {
    const word = rest[at] as string;
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = equals > 0 ? word.slice(0, equals) : word;
    const flag = flags[name];
    if (flag !== undefined && equals < 0) {
      if (flag === 'all') parsed.all = true;
      else parsed.json = true;
      continue;
    }
    const key = valued[name];
    if (key === undefined) return undefined;
    let value: string | undefined;
    if (equals > 0) value = word.slice(equals + 1);
    else {
      value = rest[at + 1];
      at += 1;
    }
    if (value === undefined || (equals < 0 && value.startsWith('-'))) return undefined;
    if (key === 'limit') {
      if (!/^[1-9][0-9]*$/.test(value)) return undefined;
      parsed.limit = Number(value);
    } else if (key === 'queue') parsed.queue = value;
    else if (key === 'cwd') parsed.cwd = value;
    else parsed.db = value;
  }
  return parsed;
}

/**
 * Prints the listing argv asks for and answers true, or answers false (having printed nothing)
 * when the full CLI should answer instead.
 */
export async function quickListing(argv: string[]): Promise<boolean> {
  const parsed = parseListing(argv);
  if (parsed === undefined) return false;
  const listing = await readQuickListing(parsed, parsed.command, parsed.limit + 1);
  if (listing === undefined) return false;
  // `taskweave sessions list | head -3`: a reader that goes away ends the listing quietly.
  guardClosedOutput();
  try {
    if (parsed.command === 'tasks')
      await listTasks({ list: async (options) => listing.tasks(options) }, parsed);
    else await listSessions({ list: async ({ limit }) => listing.sessions(limit ?? parsed.limit) }, parsed);
    return true;
  } catch {
    return false;
  }
}
