import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import { packageRoot } from '../../util/package-root.js';
import { BUSY_TIMEOUT_MS } from '../defaults.js';
import { StoreReadOnlyError, StoreVersionError } from '../store-errors.js';
import { withNativeBinding } from './sqlite-binding.js';

export { BUSY_TIMEOUT_MS };

/**
 * FULL by default: in WAL mode it costs one fsync of the WAL per commit, and it is what makes a
 * task marked completed stay completed through a power loss or an OS crash. With NORMAL the last
 * commits can roll back then (never corrupt), and the agent would redo work that already changed
 * the workspace. NORMAL is offered for throw-away databases and benchmarks.
 */
export const DEFAULT_SYNCHRONOUS: Synchronous = 'FULL';

/** The migration bookkeeping table, as drizzle-kit and drizzle's migrator name and shape it. */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/** The folder of SQL migrations that drizzle-kit generates and the package ships. */
export const MIGRATIONS_FOLDER = path.join(packageRoot(), 'drizzle');

/** SQLite's `synchronous` setting. */
export type Synchronous = 'NORMAL' | 'FULL';

/**
 * The drizzle handle the stores build their queries with. Without the schema: taskweave uses no
 * relational queries (`db.query`), whose tables drizzle would otherwise work out at every open.
 */
export type StoreDrizzle = BetterSQLite3Database;

export interface OpenDatabaseOptions {
  /** A file path (its folder is created) or `:memory:`. */
  path: string;
  synchronous?: Synchronous;
  /** The migrations to apply; the package's own `drizzle` folder unless told (tests use others). */
  migrationsFolder?: string;
  /**
   * Open for reading only (listing commands): nothing is written, so a write-protected file or a
   * read-only folder can still be read. The file must exist and be migrated by this version.
   */
  readOnly?: boolean;
}

/** An open, migrated taskweave database. */
export interface TaskweaveDb {
  readonly path: string;
  readonly drizzle: StoreDrizzle;
  /** The raw connection, for pragmas and checkpoints. */
  readonly sqlite: Database.Database;
  close(): void;
}

export { defaultDatabasePath } from '../defaults.js';
export { StoreReadOnlyError, StoreVersionError };

/**
 * Opens (creating if needed) a taskweave database: WAL, foreign keys on, a busy timeout, and
 * every migration of this version applied. Throws StoreVersionError for a database a newer
 * taskweave has migrated, before touching anything in it.
 */
export function openDatabase(options: OpenDatabaseOptions): TaskweaveDb {
  if (options.readOnly) return openReadOnly(options);
  const inMemory = options.path === ':memory:';
  if (!inMemory) mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
  const sqlite = new Database(options.path, withNativeBinding());
  try {
    // The busy timeout first, so that switching to WAL waits for a process that is migrating.
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!inMemory) switchToWal(sqlite);
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
  return wrap(sqlite, options.path);
}

/**
 * Switches the file to WAL. On a fresh file two processes doing it at once can both hold the
 * read lock and both want the write lock: SQLite then fails one with SQLITE_BUSY at once, without
 * waiting out the busy timeout (it would be a deadlock). That one tries again, as the busy handler
 * would, until the other has switched (then it is a no-op) or the busy timeout has passed.
 */
function switchToWal(sqlite: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
    }
  }
}

function wrap(sqlite: Database.Database, filePath: string): TaskweaveDb {
  const db = drizzle({ client: sqlite });
  return {
    path: filePath,
    drizzle: db,
    sqlite,
    close() {
      if (!sqlite.open) return;
      try {
        if (!sqlite.readonly) sqlite.pragma('optimize');
      } catch {
        // Only an optimisation; a file damaged under the connection must not hide why (the run says).
      }
      sqlite.close();
    },
  };
}

/** Bytes 18 and 19 of an SQLite file: its write and read format versions (2 = WAL, 1 = rollback journal). */
const FORMAT_VERSION_BYTES = [18, 19] as const;

/**
 * What SQLite says when a reader of a WAL database cannot create or use its `-shm` file: a
 * read-only mount (CANTOPEN), a folder the user may not write (READONLY_DIRECTORY, as a user
 * who does not own `.taskweave/` or after `chmod 555`), a `-shm` left that it may not write
 * (READONLY_CANTINIT, READONLY_RECOVERY).
 */
const NO_SHARED_MEMORY_CODES = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY_DIRECTORY',
  'SQLITE_READONLY_CANTINIT',
  'SQLITE_READONLY_RECOVERY',
  'SQLITE_READONLY_CANTLOCK',
]);

/**
 * Opens an existing database for reading. In WAL mode a reader needs the `-shm` file, which a
 * read-only folder does not let it create (and this build of SQLite takes no `immutable=1` URI):
 * the file is then read into memory and opened from there, as a snapshot. A WAL file left next
 * to it (commits not yet in the file) cannot be read that way, and is said.
 */
function openReadOnly(options: OpenDatabaseOptions): TaskweaveDb {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(options.path, withNativeBinding({ readonly: true, fileMustExist: true }));
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (error) {
    sqlite?.close();
    const code = String((error as { code?: unknown }).code);
    if (!NO_SHARED_MEMORY_CODES.has(code) || !existsSync(options.path)) throw error;
    sqlite = openSnapshot(options.path);
  }
  try {
    checkMigrated(
      sqlite,
      readMigrationFiles({ migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER }),
    );
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return wrap(sqlite, options.path);
}

function openSnapshot(filePath: string): Database.Database {
  const wal = statSync(`${filePath}-wal`, { throwIfNoEntry: false });
  if (wal !== undefined && wal.size > 0) {
    throw new StoreReadOnlyError(
      `The database ${filePath} cannot be read: its folder is read-only and its last changes are still in ${path.basename(filePath)}-wal, which only a writer can fold in. Open it once where it can be written.`,
    );
  }
  const image = readFileSync(filePath);
  // An in-memory copy cannot be in WAL mode; as a rollback-journal file it reads the same.
  for (const offset of FORMAT_VERSION_BYTES)
    if (image.length > offset && image[offset] === 2) image[offset] = 1;
  return new Database(image, withNativeBinding({ readonly: true }));
}

/** Throws unless the database holds exactly the migrations this version knows (it cannot migrate it read-only). */
function checkMigrated(sqlite: Database.Database, migrations: MigrationMeta[]): void {
  const table = sqlite
    .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(MIGRATIONS_TABLE);
  const applied =
    table === undefined
      ? []
      : sqlite
          .prepare<[], { hash: string; created_at: number | string }>(
            `SELECT hash, created_at FROM "${MIGRATIONS_TABLE}" ORDER BY created_at`,
          )
          .all();
  const knownTimes = new Set(migrations.map((migration) => migration.folderMillis));
  const unknown = applied.find((row) => !knownTimes.has(Number(row.created_at)));
  if (unknown !== undefined) {
    throw new StoreVersionError(
      `This database was written by a newer taskweave (migration ${Number(unknown.created_at)}, unknown); upgrade taskweave or use --db to choose another file.`,
    );
  }
  if (applied.length < migrations.length) {
    throw new StoreReadOnlyError(
      'This database was written by an older taskweave and must be upgraded, which needs write access: run a taskweave command that changes it (tasks add, run) where the file can be written.',
    );
  }
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
