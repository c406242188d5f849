import { type OriginInput, type OriginLog, originRow } from '../origin-log.js';
import type { DatabaseOrigin } from '../rows.js';
import type { PgContext } from './context.js';
import { databaseOrigin } from './schema.js';

/** The database's one origin row, in PostgreSQL, with the contracts of the SQLite OriginStore. */
export class PgOriginStore implements OriginLog {
  constructor(private readonly ctx: PgContext) {}

  async get(): Promise<DatabaseOrigin | undefined> {
    const [row] = await this.ctx.db.select().from(databaseOrigin);
    return row;
  }

  async record(origin: OriginInput): Promise<DatabaseOrigin> {
    const [row] = await this.ctx.db
      .insert(databaseOrigin)
      .values(originRow(origin))
      .onConflictDoUpdate({ target: databaseOrigin.id, set: origin })
      .returning();
    if (row === undefined) throw new Error('The origin was not stored.');
    return row;
  }
}
