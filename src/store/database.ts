import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import * as schema from './schema.js';

/** How long a connection waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * FULL by default: in WAL mode it costs one fsync of the WAL per commit, and it is what makes a
 * task marked completed stay completed through a power loss or an OS crash. With NORMAL the last
 * commits can roll back then (never corrupt), and the agent would redo work that already changed
 * the workspace. NORMAL is offered for throw-away databases and benchmarks.
 */
export const DEFAULT_SYNCHRONOUS: Synchronous = 'FULL';

/** The migration bookkeeping table, as drizzle-kit and drizzle's migrator name and shape it. */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/** This file is `src/store/database.ts` or `dist/store/database.js`: the package root is two up. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The folder of SQL migrations that drizzle-kit generates and the package ships. */
export const MIGRATIONS_FOLDER = path.join(PACKAGE_ROOT, 'drizzle');

/** SQLite's `synchronous` setting. */
export type Synchronous = 'NORMAL' | 'FULL';

/** The drizzle handle over the taskweave schema. */
export type StoreDrizzle = BetterSQLite3Database<typeof schema>;

export interface OpenDatabaseOptions {
  /** A file path (its folder is created) or `:memory:`. */
  path: string;
  synchronous?: Synchronous;
  /** The migrations to apply; the package's own `drizzle` folder unless told (tests use others). */
  migrationsFolder?: string;
}

/** An open, migrated taskweave database. */
export interface TaskweaveDb {
  readonly path: string;
  readonly drizzle: StoreDrizzle;
  /** The raw connection, for pragmas and checkpoints. */
  readonly sqlite: Database.Database;
  close(): void;
}

/** The database holds migrations this version of taskweave does not know: it was written by a newer one. */
export class StoreVersionError extends Error {
  override name = 'StoreVersionError';
}

/** Where a workspace keeps its database. */
export function defaultDatabasePath(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.taskweave', 'taskweave.db');
}

/**
 * Opens (creating if needed) a taskweave database: WAL, foreign keys on, a busy timeout, and
 * every migration of this version applied. Throws StoreVersionError for a database a newer
 * taskweave has migrated, before touching anything in it.
 */
export function openDatabase(options: OpenDatabaseOptions): TaskweaveDb {
  const inMemory = options.path === ':memory:';
  if (!inMemory) mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
  const sqlite = new Database(options.path);
  try {
    // The busy timeout first, so that switching to WAL waits for a process that is migrating.
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!inMemory) sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`synchronous = ${options.synchronous ?? DEFAULT_SYNCHRONOUS}`);
    // Off while migrating (the pragma is a no-op inside a transaction, so it is set around it):
    // drizzle-kit rebuilds a changed table with DROP TABLE, which with foreign keys on would
    // cascade into the rows that reference it. Integrity is checked before the commit instead.
    sqlite.pragma('foreign_keys = OFF');
    applyMigrations(
      sqlite,
      readMigrationFiles({ migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER }),
    );
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = drizzle({ client: sqlite, schema });
  return {
    path: options.path,
    drizzle: db,
    sqlite,
    close() {
      if (!sqlite.open) return;
      sqlite.pragma('optimize');
      sqlite.close();
    },
  };
}

/**
 * Applies the migrations this version knows and the database lacks, with drizzle's bookkeeping
 * (same table, hashes and `created_at` = the journal's `when`), so drizzle-kit and drizzle's own
 * migrator stay interchangeable. Unlike drizzle's `migrate`, the check and the changes run in
 * one IMMEDIATE transaction: two processes starting at once on a fresh file (`taskweave work`
 * twice) would otherwise both see no migrations and the second would fail on `CREATE TABLE`.
 */
function applyMigrations(sqlite: Database.Database, migrations: MigrationMeta[]): void {
  const knownTimes = new Set(migrations.map((migration) => migration.folderMillis));
  const knownHashes = new Set(migrations.map((migration) => migration.hash));
  const apply = sqlite.transaction(() => {
    sqlite.exec(
      `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
    );
    const applied = sqlite
      .prepare<[], { hash: string; created_at: number | string }>(
        `SELECT hash, created_at FROM "${MIGRATIONS_TABLE}" ORDER BY created_at`,
      )
      .all();
    for (const row of applied) {
      const createdAt = Number(row.created_at);
      if (!knownTimes.has(createdAt) && !knownHashes.has(row.hash)) {
        throw new StoreVersionError(
          `This database was written by a newer taskweave (migration ${createdAt}, hash ${row.hash.slice(0, 12)}, unknown); ` +
            'upgrade taskweave or use --db to choose another file.',
        );
      }
    }
    const last = applied.at(-1);
    const lastTime = last === undefined ? undefined : Number(last.created_at);
    const insert = sqlite.prepare(`INSERT INTO "${MIGRATIONS_TABLE}" ("hash", "created_at") VALUES (?, ?)`);
    let applying = false;
    for (const migration of migrations) {
      if (lastTime !== undefined && migration.folderMillis <= lastTime) continue;
      applying = true;
      for (const statement of migration.sql) sqlite.exec(statement);
      insert.run(migration.hash, migration.folderMillis);
    }
    if (applying) {
      const broken = sqlite.pragma('foreign_key_check');
      if (Array.isArray(broken) && broken.length > 0) {
        throw new Error(
          `A migration left rows with broken foreign keys (${JSON.stringify(broken[0])}); nothing was changed.`,
        );
      }
    }
  });
  apply.immediate();
}
