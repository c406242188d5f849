import { sql } from 'drizzle-orm';
import type { IdKindName } from '../../util/short-id.js';
import { AMBIGUOUS_IDS_SHOWN, idPrefixes, pickIdMatch } from '../id-prefix.js';
import type { PgDb } from './connection.js';
import { sessions, tasks } from './schema.js';

const TABLES = { task: tasks, session: sessions } as const;

/** resolveIdPrefix of the SQLite store, in PostgreSQL: `starts_with` (no wildcard in it, case-sensitive). */
export async function resolvePgIdPrefix(db: PgDb, kindName: IdKindName, input: string): Promise<string> {
  const { typed, prefixes } = idPrefixes(kindName, input);
  const table = TABLES[kindName];
  const id = table.id;
  const rows = await db
    .select({ id })
    .from(table)
    .where(
      sql.join(
        prefixes.map((prefix) => sql`starts_with(${id}, ${prefix})`),
        sql` OR `,
      ),
    )
    .orderBy(sql`${id} collate "C"`)
    .limit(AMBIGUOUS_IDS_SHOWN + 1);
  return pickIdMatch(
    kindName,
    input,
    typed,
    rows.map((row) => row.id),
  );
}
