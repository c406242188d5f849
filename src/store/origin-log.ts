import type { DatabaseOrigin } from './rows.js';

/** Where and by whom a database was created, as recorded in it. */
export type OriginInput = Omit<DatabaseOrigin, 'id'>;

/** Where and by whom the database was created (one row). */
export interface OriginLog {
  /** The recorded origin, or undefined (a database from before origins were recorded). */
  get(): Promise<DatabaseOrigin | undefined>;
  /** Records the origin, replacing the one there (the user made a database from elsewhere their own). */
  record(origin: OriginInput): Promise<DatabaseOrigin>;
}

/** The row the origin is kept in: the table holds one. */
export function originRow(origin: OriginInput): DatabaseOrigin {
  return { id: 1, ...origin };
}
