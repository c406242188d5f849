import { type OriginInput, type OriginLog, originRow } from '../origin-log.js';
import type { SyncPort } from '../ports.js';
import type { StoreDrizzle, TaskweaveDb } from './database.js';
import { type DatabaseOrigin, databaseOrigin } from './schema.js';

export type { OriginInput };

/**
 * The database's one origin row: the workspace it was created for, on which host, by which
 * user. A database found in another folder than the one it names was copied or cloned there.
 */
export class OriginStore implements SyncPort<OriginLog> {
  private readonly orm: StoreDrizzle;

  constructor(db: TaskweaveDb) {
    this.orm = db.drizzle;
  }

  /** The recorded origin, or undefined (a database from before origins were recorded). */
  get(): DatabaseOrigin | undefined {
    return this.orm.select().from(databaseOrigin).get();
  }

  /** Records the origin, replacing the one there (the user made a database from elsewhere their own). */
  record(origin: OriginInput): DatabaseOrigin {
    return this.orm
      .insert(databaseOrigin)
      .values(originRow(origin))
      .onConflictDoUpdate({ target: databaseOrigin.id, set: origin })
      .returning()
      .get();
  }
}
