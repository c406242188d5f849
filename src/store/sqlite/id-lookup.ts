import { asc, sql } from 'drizzle-orm';
import type { IdKindName } from '../../util/short-id.js';
import { AMBIGUOUS_IDS_SHOWN, IdLookupError, idPrefixes, pickIdMatch } from '../id-prefix.js';
import type { StoreDrizzle } from './database.js';
import { sessions, tasks } from './schema.js';

export { IdLookupError };

const TABLES = { task: tasks, session: sessions } as const;

/**
 * The full id a user means by `input`: the whole id, or a unique prefix of it with or without
 * the `task_`/`ses_` part (`4k9v` finds `task_4k9v0q2mzh7c`), of at least MIN_ID_PREFIX_CHARS
 * characters. An unknown or ambiguous prefix is an IdLookupError naming the candidates.
 */
export function resolveIdPrefix(orm: StoreDrizzle, kindName: IdKindName, input: string): string {
  const { typed, prefixes } = idPrefixes(kindName, input);
  const table = TABLES[kindName];
  const id = table.id;
  const matches = orm
    .select({ id })
    .from(table)
    // GLOB, not LIKE: case-sensitive, `_` is literal, and SQLite serves a constant prefix from the index.
    .where(
      sql.join(
        prefixes.map((prefix) => sql`${id} GLOB ${`${prefix}*`}`),
        sql` OR `,
      ),
    )
    .orderBy(asc(id))
    .limit(AMBIGUOUS_IDS_SHOWN + 1)
    .all()
    .map((row) => row.id);
  return pickIdMatch(kindName, input, typed, matches);
}
