import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
} from '../../src/store/sqlite/database.js';
import { SessionStore } from '../../src/store/sqlite/session-store.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
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

/**
 * A copy of the package's migrations plus one more, as a later taskweave would ship them
 * (the journal entry and the SQL file drizzle-kit would write).
 */
async function migrationsWithOneMore(
  tag: string,
  statements: string[],
): Promise<{ folder: string; when: number }> {
  const folder = path.join(await tempFolder(), 'drizzle');
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal: {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  } = JSON.parse(readFileSync(journalPath, 'utf8'));
  const last = journal.entries.at(-1)!;
  const when = last.when + 60_000;
  journal.entries.push({ idx: last.idx + 1, version: last.version, when, tag, breakpoints: true });
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  writeFileSync(path.join(folder, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
  return { folder, when };
}

/** A copy of the package's migrations cut after the first `count`, as an older taskweave shipped them. */
async function firstMigrations(count: number): Promise<string> {
  const folder = path.join(await tempFolder(), 'drizzle');
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal: { entries: { tag: string }[] } = JSON.parse(readFileSync(journalPath, 'utf8'));
  for (const later of journal.entries.splice(count)) rmSync(path.join(folder, `${later.tag}.sql`));
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  return folder;
}

function columnNames(sqlite: Database.Database, table: string): string[] {
  return sqlite
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .all()
    .map((row) => row.name);
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

  it('refuses the file after a newer taskweave has migrated it further', async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const newer = await migrationsWithOneMore('0099_newer_feature', [
      'CREATE TABLE `newer_feature` (`id` text)',
    ]);
    openDatabase({ path: file, migrationsFolder: newer.folder }).close();
    expect(() => openDatabase({ path: file })).toThrow(StoreVersionError);
    expect(() => openDatabase({ path: file })).toThrow(
      /^This database was written by a newer taskweave \(migration /,
    );
    // The newer version itself still opens it.
    track(openDatabase({ path: file, migrationsFolder: newer.folder }));
  });

  it('applies a later migration that rebuilds a table without losing the rows that reference it', async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const db = openDatabase({ path: file });
    const store = new TaskStore(db);
    const first = store.add({ title: 'first' });
    const second = store.add({ title: 'second', dependsOn: [first.id] });
    const createTasks = db.sqlite
      .prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tasks'")
      .get()!.sql;
    db.close();

    // What drizzle-kit generates when a column change needs a new table: copy, drop, rename.
    const rebuild = await migrationsWithOneMore('0001_rebuild_tasks', [
      'PRAGMA foreign_keys=OFF;',
      // SQLite keeps the quotes of the statement that made the table (a rename writes "tasks").
      `${createTasks.replace(/^CREATE TABLE [`"]tasks[`"]/, 'CREATE TABLE `__new_tasks`')};`,
      'INSERT INTO `__new_tasks` SELECT * FROM `tasks`;',
      'DROP TABLE `tasks`;',
      'ALTER TABLE `__new_tasks` RENAME TO `tasks`;',
      'PRAGMA foreign_keys=ON;',
    ]);
    const migrated = track(openDatabase({ path: file, migrationsFolder: rebuild.folder }));
    expect(migrated.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    const after = new TaskStore(migrated);
    expect(after.get(second.id)?.title).toBe('second');
    expect(after.dependencies(second.id)).toEqual([first.id]);
  });

  it('upgrades a database made with only the first migration, keeping its rows, to per-task messages', async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const old = openDatabase({ path: file, migrationsFolder: await firstMigrations(1) });
    expect(columnNames(old.sqlite, 'messages')).not.toContain('task_id');
    const oldSessions = new SessionStore(old);
    const session = oldSessions.createSession({ title: 't', goal: 'g', workspace: '/w', model: 'm' });
    // A run as the first version wrote it (today's SessionStore names later columns: cost, task_id).
    const run = { id: 'run_old' };
    old.sqlite
      .prepare(
        "INSERT INTO runs (id, session_id, goal, mode, status, started_at) VALUES (?, ?, 'g', 'complex', 'running', 1)",
      )
      .run(run.id, session.id);
    // Written the way the first version wrote them: no task_id column to name.
    const insertMessage = old.sqlite.prepare(
      'INSERT INTO messages (session_id, run_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    insertMessage.run(session.id, run.id, 'user', JSON.stringify('build it'), 1);
    insertMessage.run(session.id, run.id, 'assistant', JSON.stringify([{ type: 'text', text: 'ok' }]), 2);
    // A plan and its tasks as the first version wrote them (today's TaskStore names later columns).
    const plan = { id: 'plan_old' };
    const tasks = [{ id: 'task_old_1' }, { id: 'task_old_2' }];
    old.sqlite
      .prepare(
        "INSERT INTO plans (id, session_id, run_id, status, created_at, updated_at) VALUES (?, ?, ?, 'approved', 1, 1)",
      )
      .run(plan.id, session.id, run.id);
    const insertTask = old.sqlite.prepare(
      "INSERT INTO tasks (id, session_id, plan_id, queue, key, title, sequence, created_at, updated_at) VALUES (?, ?, ?, 'plan', ?, ?, ?, 1, 1)",
    );
    insertTask.run(tasks[0]!.id, session.id, plan.id, 't1', 'a', 1);
    insertTask.run(tasks[1]!.id, session.id, plan.id, 't2', 'b', 2);
    old.sqlite
      .prepare('INSERT INTO task_dependencies (task_id, depends_on_id) VALUES (?, ?)')
      .run(tasks[1]!.id, tasks[0]!.id);
    const messagesBefore = old.sqlite
      .prepare<[], Record<string, unknown>>('SELECT * FROM messages ORDER BY id')
      .all();
    old.close();

    const db = track(openDatabase({ path: file }));
    expect(migrationRows(db.sqlite).map((row) => row.hash)).toEqual(knownMigrations.map((m) => m.hash));
    expect(db.sqlite.prepare('SELECT * FROM messages ORDER BY id').all()).toEqual(
      messagesBefore.map((row) => ({ ...row, task_id: null, rewound_by: null })),
    );
    const sessions = new SessionStore(db);
    expect(sessions.messages(session.id, { taskId: null }).map((message) => message.content)).toEqual([
      'build it',
      [{ type: 'text', text: 'ok' }],
    ]);
    expect(new TaskStore(db).planTasks(plan.id).map((task) => [task.id, task.dependsOn])).toEqual([
      [tasks[0]!.id, []],
      [tasks[1]!.id, ['t1']],
    ]);
    // The run is kept, with the columns added since (no cost known, no queue task).
    expect(sessions.getRun(run.id)).toMatchObject({
      id: run.id,
      sessionId: session.id,
      goal: 'g',
      status: 'running',
      cost: null,
      taskId: null,
    });

    // The new column is a real foreign key that lets go of a deleted task, with its index.
    expect(
      db.sqlite
        .prepare<[], { from: string; table: string; on_delete: string }>(
          'SELECT "from", "table", on_delete FROM pragma_foreign_key_list(\'messages\') WHERE "from" = \'task_id\'',
        )
        .all(),
    ).toEqual([{ from: 'task_id', table: 'tasks', on_delete: 'SET NULL' }]);
    expect(
      db.sqlite
        .prepare<[], { name: string }>("SELECT name FROM pragma_index_list('messages') ORDER BY name")
        .all()
        .map((row) => row.name),
    ).toEqual(['messages_session_id_task_id_idx']);
    const added = sessions.appendMessage(session.id, run.id, 'user', 'do a', { taskId: tasks[0]!.id });
    expect(sessions.messages(session.id, { taskId: tasks[0]!.id })).toEqual([added]);
  });

  it("upgrades a database with logged events: each session's counter goes on after its last seq", async () => {
    const file = path.join(await tempFolder(), 'taskweave.db');
    const before = knownMigrations.findIndex((migration) =>
      migration.sql.some((sql) => sql.includes('session_seqs')),
    );
    expect(before).toBeGreaterThan(0);
    const old = openDatabase({ path: file, migrationsFolder: await firstMigrations(before) });
    expect(tableNames(old.sqlite)).not.toContain('session_seqs');
    // Events as the versions before the counter wrote them (their seq the log's max plus one).
    const insertSession = old.sqlite.prepare(
      "INSERT INTO sessions (id, title, goal, workspace, model, status, created_at, updated_at) VALUES (?, 't', 'g', '/w', 'm', 'idle', 1, 1)",
    );
    const insertEvent = old.sqlite.prepare(
      "INSERT INTO events (session_id, seq, run_id, type, payload, ts) VALUES (?, ?, 'run_old', 'error', '{}', 1)",
    );
    for (const id of ['ses_busy', 'ses_quiet', 'ses_empty']) insertSession.run(id);
    for (let seq = 1; seq <= 7; seq++) insertEvent.run('ses_busy', seq);
    insertEvent.run('ses_quiet', 1);
    old.close();

    const sessions = new SessionStore(track(openDatabase({ path: file })));
    expect([
      sessions.lastSeq('ses_busy'),
      sessions.lastSeq('ses_quiet'),
      sessions.lastSeq('ses_empty'),
    ]).toEqual([7, 1, 0]);
    const next = (sessionId: string) =>
      sessions.appendEvent({
        type: 'error',
        code: 'x',
        message: 'm',
        session_id: sessionId,
        run_id: 'r',
        ts: 2,
      }).seq;
    expect([next('ses_busy'), next('ses_quiet'), next('ses_empty')]).toEqual([8, 2, 1]);
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
