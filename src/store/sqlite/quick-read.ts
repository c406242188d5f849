// Reading a workspace's task list and sessions straight from the database file, without the ORM:
// `tasks list` and `sessions list` answer from here (see src/cli/quick-listing.ts), so that a
// listing loads better-sqlite3 and a few renderers instead of drizzle, zod and commander.
// Only types come from the schema; the rows are the same objects drizzle returns (a test
// compares them), and anything unusual (no file, a database of another version, a read-only
// folder with unfolded changes) is left to the full path by answering undefined.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { packageRoot } from '../../util/package-root.js';
import type { Run, Session, Task } from './schema.js';
import { withNativeBinding } from './sqlite-binding.js';

/** A read-only view of the rows a listing needs. */
export interface QuickRead {
  /** Every task, by queue and sequence (as TaskStore.listAll). */
  tasks(): Task[];
  /** Sessions, most recently active first (as SessionStore.listSessions). */
  sessions(limit: number): Session[];
  /** The runs of each session, oldest first (as SessionStore.runs). */
  runs(sessionIds: string[]): Map<string, Run[]>;
  /** A session's model calls (its model_usage events, as logged), in order. */
  modelCalls(sessionId: string): ModelCall[];
  close(): void;
}

/** A model_usage event's fields that count a call. */
export interface ModelCall {
  run_id: string;
  input_tokens: number;
  output_tokens: number;
  cost?: number;
}

/** `created_at` → `createdAt`: drizzle's property names are the columns' names in camel case. */
function camel(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row))
    out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  return out;
}

/** The times of the migrations this taskweave ships (drizzle-kit's journal). */
function shippedMigrations(): number[] {
  const journal = JSON.parse(
    readFileSync(path.join(packageRoot(), 'drizzle', 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: { when: number }[];
  };
  return journal.entries.map((entry) => entry.when);
}

/**
 * Opens the database at `file` for reading, when it can be read as it is: it exists, opens in
 * place, and holds exactly the migrations this taskweave ships. Undefined otherwise (the full
 * path then says what is wrong, or reads the file another way).
 */
export async function openQuickRead(file: string): Promise<QuickRead | undefined> {
  let sqlite: Database.Database;
  try {
    // Loaded here, not with the module: argv the quick path leaves to the CLI loads no database.
    const { default: Sqlite } = await import('better-sqlite3');
    sqlite = new Sqlite(file, withNativeBinding({ readonly: true, fileMustExist: true }));
  } catch {
    return undefined;
  }
  try {
    sqlite.pragma('busy_timeout = 5000');
    const applied = sqlite
      .prepare<[], { created_at: number | string }>('SELECT created_at FROM "__drizzle_migrations"')
      .all()
      .map((row) => Number(row.created_at));
    const shipped = shippedMigrations();
    if (applied.length !== shipped.length || !shipped.every((when) => applied.includes(when))) {
      sqlite.close();
      return undefined;
    }
  } catch {
    sqlite.close();
    return undefined;
  }
  const tasks = sqlite.prepare('SELECT * FROM tasks ORDER BY queue, sequence');
  const sessions = sqlite.prepare(
    'SELECT * FROM sessions ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT ?',
  );
  const runs = sqlite.prepare('SELECT * FROM runs WHERE session_id = ? ORDER BY started_at, id');
  const calls = sqlite.prepare<[string], { payload: string }>(
    "SELECT payload FROM events WHERE session_id = ? AND type = 'agent_update' AND update_type = 'model_usage' ORDER BY seq",
  );
  return {
    tasks: () => (tasks.all() as Record<string, unknown>[]).map(camel) as Task[],
    sessions: (limit) => (sessions.all(limit) as Record<string, unknown>[]).map(camel) as Session[],
    runs: (sessionIds) =>
      new Map(sessionIds.map((id) => [id, (runs.all(id) as Record<string, unknown>[]).map(camel) as Run[]])),
    modelCalls: (sessionId) => calls.all(sessionId).map((row) => JSON.parse(row.payload) as ModelCall),
    close: () => sqlite.close(),
  };
}
