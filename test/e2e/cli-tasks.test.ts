import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDatabasePath, openDatabase, type TaskweaveDb } from '../../src/store/sqlite/database.js';
import { tasks } from '../../src/store/sqlite/schema.js';
import { TaskStore } from '../../src/store/sqlite/task-store.js';
import { runCli, tableRows } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function tempWorkspace(): Promise<string> {
  const folder = await tempWorkspaceRoot('taskweave-tasks-');
  folders.push(folder);
  return folder;
}

/** `taskweave tasks <args> -C <workspace>`. */
function tasksCli(
  workspace: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return runCli(['tasks', ...args, '-C', workspace], options);
}

interface ListedTask {
  id: string;
  sequence: number;
  status: string;
  title: string;
  description: string;
  attempts: number;
  result_summary: string | null;
  fail_reason: string | null;
  created_at: number;
  updated_at: number;
}

async function listJson(workspace: string, extra: string[] = []): Promise<ListedTask[]> {
  const run = await tasksCli(workspace, ['list', '--json', ...extra]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

/** Opens the workspace's database in the test process, runs `work` and closes it. */
function withDatabase<T>(workspace: string, work: (db: TaskweaveDb) => T): T {
  const db = openDatabase({ path: defaultDatabasePath(workspace) });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

describe('taskweave tasks (CLI)', () => {
  it('says the list is empty and how to add a task, without creating a database', async () => {
    const workspace = await tempWorkspace();
    const run = await tasksCli(workspace, ['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No tasks in the queue yet');
    expect(run.stdout).toContain('taskweave tasks add "<what to do>"');
    expect(existsSync(path.join(workspace, '.taskweave'))).toBe(false);
    expect(await listJson(workspace)).toEqual([]);
  });

  it('adds three tasks, reports where each was queued and lists them in order (table and --json)', async () => {
    const workspace = await tempWorkspace();
    const longFirstLine = `Refactor ${'the parser '.repeat(12)}`.trim();
    const first = await tasksCli(workspace, ['add', 'Write', 'the', 'README']);
    const second = await tasksCli(workspace, ['add', `${longFirstLine}\nand keep the tests green`]);
    const third = await tasksCli(workspace, ['add', '--title', 'Deploy', 'ship it to production']);
    for (const run of [first, second, third]) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    expect(first.stdout).toMatch(
      /^Added task_[0-9a-z]{12} "Write the README": queued as #1, nothing ahead of it\.\n$/,
    );
    expect(second.stdout).toContain('queued as #2, 1 task ahead of it.');
    expect(third.stdout).toContain('"Deploy": queued as #3, 2 tasks ahead of it.');
    expect(existsSync(defaultDatabasePath(workspace))).toBe(true);

    const listed = await listJson(workspace);
    expect(listed.map((task) => task.title)).toEqual([
      'Write the README',
      `${longFirstLine.slice(0, 79)}…`,
      'Deploy',
    ]);
    expect(listed[1]?.title).toHaveLength(80);
    expect(listed[1]?.description).toBe(`${longFirstLine}\nand keep the tests green`);
    expect(listed[2]?.description).toBe('ship it to production');
    expect(listed.map((task) => task.sequence)).toEqual([1, 2, 3]);
    expect(Object.keys(listed[0] ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'sequence',
        'status',
        'title',
        'description',
        'attempts',
        'result_summary',
        'fail_reason',
        'created_at',
        'updated_at',
      ]),
    );
    expect(listed[0]).toMatchObject({
      status: 'pending',
      attempts: 0,
      result_summary: null,
      fail_reason: null,
    });
    expect(first.stdout).toContain(listed[0]?.id);

    const table = await tasksCli(workspace, ['list']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^#\s+id\s+status\s+title\s+attempts\s+updated$/);
    const rows = tableRows(table.stdout);
    expect(rows.map((row) => row[0])).toEqual(['1', '2', '3']);
    expect(rows.map((row) => row[1])).toEqual(listed.map((task) => task.id.slice('task_'.length, 13)));
    expect(rows.map((row) => row[2])).toEqual(['pending', 'pending', 'pending']);
    expect(rows[0]?.[3]).toBe('Write the README');
    expect(rows[0]?.[5]).toBe('just now');
    // No terminal: no colours. A forced-colour terminal gets a coloured status.
    expect(table.stdout).not.toContain('\u001b[');
    const coloured = await tasksCli(workspace, ['list'], { env: { FORCE_COLOR: '1' } });
    expect(coloured.stdout).toContain('\u001b[36mpending\u001b[39m');
  });

  it('`tasks` and `sessions` with no subcommand list, as their list subcommand does (exit 0)', async () => {
    const workspace = await tempWorkspace();
    await tasksCli(workspace, ['add', 'Write', 'the', 'README']);
    const bare = await runCli(['tasks', '--cwd', workspace]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toBe((await runCli(['tasks', 'list', '--cwd', workspace])).stdout);
    expect(bare.stdout).toContain('Write the README');
    const all = await runCli(['tasks', '--all', '--json', '--cwd', workspace]);
    expect(JSON.parse(all.stdout)).toHaveLength(1);
    const sessions = await runCli(['sessions', '--cwd', workspace]);
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(sessions.stdout).toBe((await runCli(['sessions', 'list', '--cwd', workspace])).stdout);
  });

  it('completes, fails, cancels and deletes tasks named by an id prefix', async () => {
    const workspace = await tempWorkspace();
    withDatabase(workspace, (db) => {
      const store = new TaskStore(db);
      for (const title of ['one', 'two', 'three', 'four', 'five']) store.add({ title, description: title });
    });
    const [one, two, three, four, five] = await listJson(workspace);
    const random = (task: ListedTask | undefined) => task!.id.slice('task_'.length);

    const completed = await tasksCli(workspace, [
      'complete',
      random(one).slice(0, 4),
      '--summary',
      'wrote it by hand',
      '--json',
    ]);
    expect(completed.stderr).toBe('');
    expect(completed.code).toBe(0);
    expect(JSON.parse(completed.stdout)).toMatchObject({
      id: one?.id,
      status: 'completed',
      result_summary: 'wrote it by hand',
      attempts: 1,
    });

    const failed = await tasksCli(workspace, [
      'fail',
      random(two).slice(0, 6),
      '--reason',
      'the API is gone',
    ]);
    expect(failed.code).toBe(0);
    expect(failed.stdout).toBe(`✗ failed ${two?.id} "two": the API is gone\n`);

    const cancelled = await tasksCli(workspace, ['cancel', three!.id]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toBe(`cancelled ${three?.id} "three"\n`);

    const deleted = await tasksCli(workspace, ['delete', `task_${random(four).slice(0, 5)}`]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`deleted ${four?.id} "four"\n`);

    const all = await listJson(workspace, ['--all']);
    expect(all.map((task) => [task.title, task.status])).toEqual([
      ['one', 'completed'],
      ['two', 'failed'],
      ['three', 'cancelled'],
      ['five', 'pending'],
    ]);
    expect(all[1]?.fail_reason).toBe('the API is gone');

    // Only `five` is left to do: it is #1 now, and the finished ones have no place in line.
    const table = await tasksCli(workspace, ['list', '--all']);
    const rows = tableRows(table.stdout);
    expect(rows.map((row) => row.length)).toEqual([5, 5, 5, 6]);
    expect(rows[3]?.slice(0, 3)).toEqual(['1', random(five).slice(0, 8), 'pending']);
    await tasksCli(workspace, ['complete', random(five)]);
    const empty = await tasksCli(workspace, ['list']);
    expect(empty.stdout).toContain('Nothing left to do in the queue: all 4 of its tasks are finished');
  });

  it('refuses an unknown, ambiguous or too short id with exit code 2 and changes nothing', async () => {
    const workspace = await tempWorkspace();
    withDatabase(workspace, (db) => {
      const now = Date.now();
      for (const [index, id] of ['task_abcd00000001', 'task_abcd00000002'].entries()) {
        db.drizzle
          .insert(tasks)
          .values({ id, title: `twin ${index + 1}`, sequence: index + 1, createdAt: now, updatedAt: now })
          .run();
      }
    });

    const ambiguous = await tasksCli(workspace, ['cancel', 'abcd']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      '"abcd" is ambiguous: it matches task_abcd00000001, task_abcd00000002',
    );

    const unknown = await tasksCli(workspace, ['complete', 'zzzz9']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no task whose id starts with "zzzz9"');

    const short = await tasksCli(workspace, ['delete', 'abc']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('too short: give at least 4 characters');

    const unique = await tasksCli(workspace, ['cancel', 'ABCD00000002']);
    expect(unique.code).toBe(0);
    expect((await listJson(workspace, ['--all'])).map((task) => task.status)).toEqual([
      'pending',
      'cancelled',
    ]);
  });

  it('refuses an illegal transition with exit code 2 and leaves the task as it was', async () => {
    const workspace = await tempWorkspace();
    const [cancelMe, busy] = withDatabase(workspace, (db) => {
      const store = new TaskStore(db);
      return [store.cancel(store.add({ title: 'never mind' }).id), store.add({ title: 'busy one' })];
    });

    const complete = await tasksCli(workspace, ['complete', cancelMe!.id]);
    expect(complete.code).toBe(2);
    expect(complete.stderr).toContain(`Cannot mark task ${cancelMe?.id} completed: it is cancelled`);

    // A worker is on it: the store refuses to delete an in-progress task.
    withDatabase(workspace, (db) => new TaskStore(db).start(busy!.id));
    const remove = await tasksCli(workspace, ['delete', busy!.id]);
    expect(remove.code).toBe(2);
    expect(remove.stderr).toContain(`Cannot delete task ${busy?.id}: it is in_progress; cancel it first.`);

    const all = await listJson(workspace, ['--all']);
    expect(all.map((task) => task.status)).toEqual(['cancelled', 'in_progress']);
  });

  it('keeps separate queues and uses the --db file instead of the workspace database', async () => {
    const workspace = await tempWorkspace();
    const shell = await tempWorkspace();
    const added = await tasksCli(workspace, ['add', '--db', 'data/other.db', 'lint', 'everything'], {
      cwd: shell,
    });
    expect(added.code).toBe(0);
    // Relative to the folder the command was typed in, like any path on a command line.
    expect(existsSync(path.join(shell, 'data/other.db'))).toBe(true);
    expect(existsSync(defaultDatabasePath(workspace))).toBe(false);
    expect(await listJson(workspace)).toEqual([]);
    const other = await listJson(workspace, ['--db', path.join(shell, 'data/other.db')]);
    expect(other.map((task) => task.title)).toEqual(['lint everything']);

    const ci = await tasksCli(workspace, ['add', '--queue', 'ci', 'run the slow tests']);
    expect(ci.stdout).toContain('queued in the queue "ci" as #1');
    expect(await listJson(workspace)).toEqual([]);
    expect((await listJson(workspace, ['--queue', 'ci'])).map((task) => task.title)).toEqual([
      'run the slow tests',
    ]);
  });

  it('exits 2 for a missing workspace folder, a database of a newer taskweave, or a file that is not a database', async () => {
    const workspace = await tempWorkspace();
    const missing = await tasksCli(path.join(workspace, 'nope'), ['list']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`The workspace folder ${path.join(workspace, 'nope')} does not exist.`);

    withDatabase(workspace, (db) => {
      db.sqlite
        .prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)')
        .run('f'.repeat(64), 9_999_999_999_999);
    });
    const newer = await tasksCli(workspace, ['list']);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toContain('written by a newer taskweave');

    const garbage = path.join(workspace, 'garbage.db');
    await mkdir(path.dirname(garbage), { recursive: true });
    await writeFile(garbage, 'this is not a database, just words. '.repeat(200));
    const unreadable = await tasksCli(workspace, ['list', '--db', garbage]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain(`error: The database file ${garbage} is not an SQLite database`);
  });
});
