import { asc, sql } from 'drizzle-orm';
import { ID_KINDS, type IdKindName, MIN_ID_PREFIX_CHARS } from '../util/short-id.js';
import type { StoreDrizzle } from './database.js';
import { sessions, tasks } from './schema.js';

/** How many matching ids an "ambiguous" error names. */
const AMBIGUOUS_IDS_SHOWN = 5;

/** Characters of the ids taskweave makes (and nothing GLOB would read as a wildcard). */
const ID_CHARACTERS = /^[a-z0-9_-]+$/;

/** An id the user typed that names no row, or more than one: the message says which and why. */
export class IdLookupError extends Error {
  override name = 'IdLookupError';

  /** `unknown`: no row has it; `invalid`: it cannot be an id; `ambiguous`: several rows match. */
  constructor(
    message: string,
    readonly reason: 'unknown' | 'invalid' | 'ambiguous',
  ) {
    super(message);
  }
}

const TABLES = { task: tasks, session: sessions } as const;

/**
 * The full id a user means by `input`: the whole id, or a unique prefix of it with or without
 * the `task_`/`ses_` part (`4k9v` finds `task_4k9v0q2mzh7c`), of at least MIN_ID_PREFIX_CHARS
 * characters. An unknown or ambiguous prefix is an IdLookupError naming the candidates.
 */
export function resolveIdPrefix(orm: StoreDrizzle, kindName: IdKindName, input: string): string {
  const kind = ID_KINDS[kindName];
  const typed = input.trim().toLowerCase();
  const withoutPrefix = typed.startsWith(`${kind.idPrefix}_`) ? typed.slice(kind.idPrefix.length + 1) : typed;
  if (!ID_CHARACTERS.test(typed)) {
    throw new IdLookupError(
      `"${input}" is not a ${kind.noun} id: ids are made of letters, digits and "_".`,
      'invalid',
    );
  }
  if (withoutPrefix.length < MIN_ID_PREFIX_CHARS) {
    throw new IdLookupError(
      `The ${kind.noun} id "${input}" is too short: give at least ${MIN_ID_PREFIX_CHARS} characters of it.`,
      'invalid',
    );
  }
  const patterns = [...new Set([`${typed}*`, `${kind.idPrefix}_${withoutPrefix}*`])];
  const table = TABLES[kindName];
  const id = table.id;
  const matches = orm
    .select({ id })
    .from(table)
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
    throw new IdLookupError(
      `There is no ${kind.noun} whose id starts with "${input}" (see ${kind.listCommand}).`,
      'unknown',
    );
  }
  if (others.length > 0) {
    const shown = matches.slice(0, AMBIGUOUS_IDS_SHOWN).join(', ');
    const more = matches.length > AMBIGUOUS_IDS_SHOWN ? ', …' : '';
    throw new IdLookupError(
      `The ${kind.noun} id "${input}" is ambiguous: it matches ${shown}${more}. Give more characters.`,
      'ambiguous',
    );
  }
  return only;
}
