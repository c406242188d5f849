import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { describe, expect, it } from 'vitest';
import {
  BUSY_TIMEOUT_MS,
  defaultDatabasePath,
  MIGRATIONS_FOLDER,
  openDatabase,
  StoreVersionError,
} from '../../src/store/database.js';
import { SessionStore } from '../../src/store/session-store.js';
import { runFixture } from './run-fixture.js';
import { tempFolder, track } from './temp-database.js';

const knownMigrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });

function tableNames(sqlite: Database.Database): string[] {
  return sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);
}

function migrationRows(sqlite: Database.Database): { hash: string; created_at: number }[] {
  return sqlite
    .prepare<[], { hash: string; created_at: number }>(
      'SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at',
    )
    .all();
}

describe('openDatabase', () => {
  it('creates the folder and a fresh database with every migration applied', async () => {
    const file = path.join(await tempFolder(), 'nested', 'deeper', 'taskweave.db');
    const db = track(openDatabase({ path: file }));
    expect(existsSync(file)).toBe(true);
    expect(tableNames(db.sqlite)).toEqual(
      expect.arrayContaining([
        'sessions',
        'messages',
        'events',
        'runs',
        'plans',
        'tasks',
        'task_dependencies',
      ]),
    );
    expect(knownMigrations.length).toBeGreaterThan(0);
    expect(migrationRows(db.sqlite).map((row) => row.hash)).toEqual(knownMigrations.map((m) => m.hash));
  });

  it('opens in WAL mode with foreign keys on, the busy timeout and synchronous FULL unless told', async () => {
    const folder = await tempFolder();
    const db = track(openDatabase({ path: path.join(folder, 'a.db') }));
    expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
    expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    const normal = track(openDatabase({ path: path.join(folder, 'b.db'), synchronous: 'NORMAL' }));
    expect(normal.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    expect(() =>
      db.sqlite
        .prepare(
          "INSERT INTO messages (session_id, run_id, role, content, created_at) VALUES ('nope', 'r', 'user', '1', 1)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('reopens an existing database without applying anything again, and the data survives', async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const first = openDatabase({ path: file });
    const session = new SessionStore(first).createSession({
      title: 't',
      goal: 'g',
      workspace: '/w',
      model: 'm',
    });
    first.close();
    const raw = new Database(file, { readonly: true });
    const schemaVersion = raw.pragma('schema_version', { simple: true });
    raw.close();

    const second = track(openDatabase({ path: file }));
    expect(second.sqlite.pragma('schema_version', { simple: true })).toBe(schemaVersion);
    expect(migrationRows(second.sqlite)).toHaveLength(knownMigrations.length);
    expect(new SessionStore(second).getSession(session.id)).toEqual(session);
  });

  it('refuses a database migrated by a newer taskweave, with a clear message, and leaves it alone', async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    openDatabase({ path: file }).close();
    const newer = Math.max(...knownMigrations.map((m) => m.folderMillis)) + 86_400_000;
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
      .run('f'.repeat(64), newer);
    const schemaVersion = raw.pragma('schema_version', { simple: true });
    raw.close();

    expect(() => openDatabase({ path: file })).toThrow(StoreVersionError);
    expect(() => openDatabase({ path: file })).toThrow(
      `This database was written by a newer taskweave (migration ${newer}, hash ffffffffffff, unknown); ` +
        'upgrade taskweave or use --db to choose another file.',
    );

    const after = new Database(file, { readonly: true });
    expect(after.pragma('schema_version', { simple: true })).toBe(schemaVersion);
    expect(migrationRows(after)).toHaveLength(knownMigrations.length + 1);
    after.close();
  });

  it('lets two processes open the same fresh file at once: both migrate it without error', async () => {
    const file = path.join(await tempFolder(), 'fresh.db');
    const results = await Promise.all([
      runFixture(['open', file, 'first']),
      runFixture(['open', file, 'second']),
    ]);
    for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });
    const db = track(openDatabase({ path: file }));
    expect(migrationRows(db.sqlite)).toHaveLength(knownMigrations.length);
    expect(
      new SessionStore(db)
        .listSessions()
        .map((session) => session.title)
        .sort(),
    ).toEqual(['first', 'second']);
  });

  it('keeps the database of a workspace in .taskweave/taskweave.db', () => {
    expect(defaultDatabasePath('/home/me/project')).toBe(
      path.join('/home/me/project', '.taskweave', 'taskweave.db'),
    );
  });

  it('applies an in-memory database too', () => {
    const db = track(openDatabase({ path: ':memory:' }));
    expect(tableNames(db.sqlite)).toContain('tasks');
  });
});
