import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import { packageRoot } from '../../util/package-root.js';
import { StoreVersionError } from '../store-errors.js';
import { type PgDb, queryRows } from './connection.js';

/** The folder of PostgreSQL migrations that drizzle-kit generates (drizzle-pg.config.ts) and the package ships. */
export const PG_MIGRATIONS_FOLDER = path.join(packageRoot(), 'drizzle-pg');

/** drizzle's bookkeeping table, in the schema the tables live in (as the SQLite store keeps it). */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/** The advisory lock (two keys) that migrating holds: taskweave's class, and "migrations". */
const MIGRATION_LOCK = sql`pg_advisory_xact_lock(7461, 0)`;

/**
 * Applies the migrations this version knows and the database lacks (in `schema`, created if
 * missing, when given), in one transaction under an advisory lock: workers on several machines starting at once on a new database migrate it once.
 * A database that holds a migration this version does not know is a StoreVersionError, before
 * anything in it changes.
 */
export async function migratePostgres(
  db: PgDb,
  migrationsFolder: string = PG_MIGRATIONS_FOLDER,
  options: { schema?: string } = {},
): Promise<void> {
  const migrations: MigrationMeta[] = readMigrationFiles({ migrationsFolder });
  const knownTimes = new Set(migrations.map((migration) => migration.folderMillis));
  const knownHashes = new Set(migrations.map((migration) => migration.hash));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select ${MIGRATION_LOCK}`);
    // Under the lock: two CREATE SCHEMA IF NOT EXISTS at once can still collide.
    if (options.schema !== undefined)
      await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS ${sql.identifier(options.schema)}`);
    await tx.execute(
      sql.raw(
        `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
      ),
    );
    const applied = await queryRows<{ hash: string; created_at: string | number }>(
      tx,
      sql.raw(`SELECT hash, created_at FROM "${MIGRATIONS_TABLE}" ORDER BY created_at`),
    );
    for (const row of applied) {
      const createdAt = Number(row.created_at);
      if (!knownTimes.has(createdAt) && !knownHashes.has(row.hash)) {
        throw new StoreVersionError(
          `This database was written by a newer taskweave (migration ${createdAt}, hash ${row.hash.slice(0, 12)}, unknown); upgrade taskweave or use another --store.`,
        );
      }
    }
    const last = applied.at(-1);
    const lastTime = last === undefined ? undefined : Number(last.created_at);
    for (const migration of migrations) {
      if (lastTime !== undefined && migration.folderMillis <= lastTime) continue;
      for (const statement of migration.sql) {
        if (statement.trim() === '') continue;
        // drizzle-kit names the default schema in references; the tables live in the search path's.
        await tx.execute(sql.raw(statement.replaceAll('"public".', '')));
      }
      await tx.execute(
        sql`INSERT INTO ${sql.identifier(MIGRATIONS_TABLE)} ("hash", "created_at") VALUES (${migration.hash}, ${migration.folderMillis})`,
      );
    }
  });
}
