import { asc, sql } from 'drizzle-orm';
import type { TaskweaveDb } from '../store/database.js';
import { sessions, tasks } from '../store/schema.js';
import { UsageError } from './usage-error.js';

/** The fewest characters of an id (after its `task_` or `ses_` prefix) a command accepts. */
export const MIN_ID_PREFIX_CHARS = 4;
/** How many characters of an id (after its prefix) tables show. */
export const SHORT_ID_CHARS = 8;
/** How many matching ids an "ambiguous" error names. */
const AMBIGUOUS_IDS_SHOWN = 5;

/** Characters of the ids taskweave makes (and nothing GLOB would read as a wildcard). */
const ID_CHARACTERS = /^[a-z0-9_-]+$/;

/** What an id prefix is looked up among. */
export interface IdKind {
  /** The word messages use: `task`, `session`. */
  noun: string;
  /** The prefix newId gives these ids, without the underscore: `task`, `ses`. */
  idPrefix: string;
  table: typeof tasks | typeof sessions;
  /** The command that lists them, for the "unknown id" message. */
  listCommand: string;
}

export const TASK_IDS: IdKind = {
  noun: 'task',
  idPrefix: 'task',
  table: tasks,
  listCommand: 'taskweave tasks list --all',
};

export const SESSION_IDS: IdKind = {
  noun: 'session',
  idPrefix: 'ses',
  table: sessions,
  listCommand: 'taskweave sessions list',
};

/** The id as tables show it: the start of its random part (`task_4k9v0q2mzh7c` → `4k9v0q2m`). */
export function shortId(id: string, kind: IdKind): string {
  const random = id.startsWith(`${kind.idPrefix}_`) ? id.slice(kind.idPrefix.length + 1) : id;
  return random.slice(0, SHORT_ID_CHARS);
}

/**
 * The full id a user means by `input`: the whole id, or a unique prefix of it with or without
 * the `task_`/`ses_` part (`4k9v` finds `task_4k9v0q2mzh7c`), of at least MIN_ID_PREFIX_CHARS
 * characters. An unknown or ambiguous prefix is a UsageError naming the candidates.
 */
export function resolveIdPrefix(db: TaskweaveDb, kind: IdKind, input: string): string {
  const typed = input.trim().toLowerCase();
  const withoutPrefix = typed.startsWith(`${kind.idPrefix}_`) ? typed.slice(kind.idPrefix.length + 1) : typed;
  if (!ID_CHARACTERS.test(typed)) {
    throw new UsageError(`"${input}" is not a ${kind.noun} id: ids are made of letters, digits and "_".`);
  }
  if (withoutPrefix.length < MIN_ID_PREFIX_CHARS) {
    throw new UsageError(
      `The ${kind.noun} id "${input}" is too short: give at least ${MIN_ID_PREFIX_CHARS} characters of it.`,
    );
  }
  const patterns = [...new Set([`${typed}*`, `${kind.idPrefix}_${withoutPrefix}*`])];
  const id = kind.table.id;
  const matches = db.drizzle
    .select({ id })
    .from(kind.table)
    // GLOB, not LIKE: case-sensitive, `_` is literal, and SQLite serves a constant prefix from the index.
    .where(
      sql.join(
        patterns.map((pattern) => sql`${id} GLOB ${pattern}`),
        sql` OR `,
      ),
    )
    .orderBy(asc(id))
    .limit(AMBIGUOUS_IDS_SHOWN + 1)
    .all()
    .map((row) => row.id);
  const exact = matches.find((match) => match === typed);
  if (exact !== undefined) return exact;
  const [only, ...others] = matches;
  if (only === undefined) {
    throw new UsageError(
      `There is no ${kind.noun} whose id starts with "${input}" (see ${kind.listCommand}).`,
    );
  }
  if (others.length > 0) {
    const shown = matches.slice(0, AMBIGUOUS_IDS_SHOWN).join(', ');
    const more = matches.length > AMBIGUOUS_IDS_SHOWN ? ', …' : '';
    throw new UsageError(
      `The ${kind.noun} id "${input}" is ambiguous: it matches ${shown}${more}. Give more characters.`,
    );
  }
  return only;
}
