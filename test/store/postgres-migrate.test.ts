import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/ports.js';
import { migratePostgres, PG_MIGRATIONS_FOLDER } from '../../src/store/postgres/migrate.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { StoreVersionError } from '../../src/store/store-errors.js';

/** The package's PostgreSQL migrations plus one a later taskweave would ship. */
async function migrationsWithOneMore(): Promise<{ folder: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'taskweave-pg-migrations-'));
  const folder = path.join(root, 'drizzle-pg');
  cpSync(PG_MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
  const last = journal.entries.at(-1);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 60_000, tag: '9999_later' });
  writeFileSync(journalPath, JSON.stringify(journal));
  writeFileSync(path.join(folder, '9999_later.sql'), 'ALTER TABLE "tasks" ADD COLUMN "later" text;');
  return { folder, remove: () => rm(root, { recursive: true, force: true }) };
}

describe('PostgreSQL migrations (PGlite)', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('refuses a database a newer taskweave migrated, saying so, and applies nothing twice', async () => {
    const schema = `tw_migrate_${randomBytes(4).toString('hex')}`;
    const store = await openPostgresStore({ target: { pglite: client }, schema });
    await store.tasks.add({ title: 'kept' });
    await store.close();
    // Opening again applies nothing (a second CREATE TABLE would fail).
    const again = await openPostgresStore({ target: { pglite: client }, schema });
    expect((await again.tasks.listAll()).map((task) => task.title)).toEqual(['kept']);
    await again.close();
    const later = await migrationsWithOneMore();
    try {
      await client.exec(`SET search_path TO "${schema}"`);
      const { drizzle } = await import('drizzle-orm/pglite');
      await migratePostgres(drizzle({ client }), later.folder);
      await expect(openPostgresStore({ target: { pglite: client }, schema })).rejects.toThrow(
        StoreVersionError,
      );
      await expect(openPostgresStore({ target: { pglite: client }, schema })).rejects.toThrow(
        /newer taskweave/,
      );
    } finally {
      await later.remove();
    }
  });
});

const server = process.env.TASKWEAVE_TEST_POSTGRES;

describe('PostgreSQL migrations (a real server)', () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set', () => {});
    return;
  }
  it('migrates a new database once when several workers start on it at the same moment', async () => {
    const schema = `tw_migrate_${randomBytes(4).toString('hex')}`;
    const stores: Store[] = [];
    try {
      stores.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () => openPostgresStore({ target: { url: server }, schema })),
        )),
      );
      await stores[0]!.tasks.add({ title: 'one' });
      expect((await stores[4]!.tasks.listAll()).map((task) => task.title)).toEqual(['one']);
    } finally {
      for (const store of stores) await store.close();
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      let applied: number | undefined;
      try {
        applied = (await admin.query(`SELECT count(*)::int AS n FROM "${schema}"."__drizzle_migrations"`))
          .rows[0].n;
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
      const shipped = JSON.parse(
        readFileSync(path.join(PG_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
      );
      expect(applied).toBe(shipped.entries.length);
    }
  });
});
