import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * `--store postgres://…` (also TASKWEAVE_STORE and the user config's `store`): a store that cannot
 * be opened is a configuration error (exit 2) whose message never holds the password; with a real
 * server (TASKWEAVE_TEST_POSTGRES) a planned run goes through the PostgreSQL store end to end.
 */

const PASSWORD = 'hunter2-SECRET';
/** Nothing listens on port 1 of this machine. */
const UNREACHABLE = `postgres://worker:${PASSWORD}@127.0.0.1:1/taskweave`;

function expectNoPassword(result: { stdout: string; stderr: string }): void {
  expect(result.stdout).not.toContain(PASSWORD);
  expect(result.stderr).not.toContain(PASSWORD);
}

/** A HOME of its own, so that the user's config cannot choose a store for the test. */
async function isolatedHome(): Promise<NodeJS.ProcessEnv> {
  const home = await tempWorkspaceRoot('taskweave-home-');
  return { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TASKWEAVE_STORE: '' };
}

describe('--store: a store that cannot be opened is said plainly, without its password', () => {
  it('an unreachable server: exit 2, the URL shown with *** for the password, no stack trace', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-store-url-');
    const env = await isolatedHome();
    const listed = await runCli(['tasks', 'list', '--store', UNREACHABLE, '--cwd', workspace], { env });
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain(
      'Cannot open the store postgres://worker:***@127.0.0.1:1/taskweave (from --store)',
    );
    expect(listed.stderr).toContain('ECONNREFUSED');
    expect(listed.stderr).not.toMatch(/\n\s+at /);
    expectNoPassword(listed);
    // Nothing was written to the workspace: the SQLite file is not the fallback.
    expect(existsSync(path.join(workspace, '.taskweave'))).toBe(false);
    const script = await writeScript(workspace, { turns: [{ text: 'never asked' }] });
    const run = await runCli(['run', '--json', '--model', `script:${script}`, '--cwd', workspace, 'goal'], {
      env: { ...env, TASKWEAVE_STORE: UNREACHABLE },
    });
    expect(run.code).toBe(2);
    const [error] = parseJsonLines(run.stdout);
    expect(error).toMatchObject({ type: 'error', code: 'configuration' });
    expect(JSON.stringify(error)).toContain(
      'postgres://worker:***@127.0.0.1:1/taskweave (from TASKWEAVE_STORE)',
    );
    expectNoPassword(run);
  });

  it('a URL that is not PostgreSQL, or names no database, is refused before any connection', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-store-url-');
    const env = await isolatedHome();
    const other = await runCli(
      ['tasks', 'list', '--store', `mysql://worker:${PASSWORD}@db/x`, '--cwd', workspace],
      { env },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('mysql://worker:***@db/x (from --store) is not one taskweave can open');
    const noDatabase = await runCli(
      ['tasks', 'list', '--store', `postgres://worker:${PASSWORD}@db`, '--cwd', workspace],
      {
        env,
      },
    );
    expect(noDatabase.code).toBe(2);
    expect(noDatabase.stderr).toContain('names no database');
    const both = await runCli(['tasks', 'list', '--store', UNREACHABLE, '--db', 'x.db', '--cwd', workspace], {
      env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--db and a shared store');
    for (const result of [other, noDatabase, both]) expectNoPassword(result);
  });

  it('the user config chooses the store; a workspace config cannot; --help never shows a password', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-store-url-');
    const env = await isolatedHome();
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await writeFile(
      path.join(workspace, '.taskweave', 'config.json'),
      JSON.stringify({ store: UNREACHABLE }),
    );
    // The workspace's choice is ignored: the workspace's SQLite file answers.
    const local = await runCli(['tasks', 'list', '--cwd', workspace], { env });
    expect(local.code).toBe(0);
    const userConfig = path.join(env.XDG_CONFIG_HOME ?? '', 'taskweave', 'config.json');
    await mkdir(path.dirname(userConfig), { recursive: true });
    await writeFile(userConfig, JSON.stringify({ store: UNREACHABLE }));
    const shared = await runCli(['tasks', 'list', '--cwd', workspace], { env });
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('(from config)');
    expectNoPassword(shared);
    const help = await runCli(['tasks', 'list', '--help'], { env: { ...env, TASKWEAVE_STORE: UNREACHABLE } });
    expect(help.stdout).toContain('--store <url>');
    expectNoPassword(help);
    expect(JSON.parse(await readFile(userConfig, 'utf8'))).toEqual({ store: UNREACHABLE });
  });
});

const server = process.env.TASKWEAVE_TEST_POSTGRES;

describe('--store with a real PostgreSQL server', () => {
  if (server === undefined || server === '') {
    it.skip('skipped: TASKWEAVE_TEST_POSTGRES is not set (.ci/run sets it)', () => {});
    return;
  }
  it('runs a planned goal of two tasks through the PostgreSQL store and lists it from another folder', async () => {
    // A schema of this test's own, through the URL's `options` (the server's search_path).
    const schema = `tw_e2e_${randomBytes(5).toString('hex')}`;
    const url = new URL(server);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    try {
      const workspace = await tempWorkspaceRoot('taskweave-store-pg-');
      const env = { ...(await isolatedHome()), TASKWEAVE_STORE: url.toString() };
      const script = await writeScript(workspace, {
        turns: [
          {
            text: 'Two parts.',
            toolCalls: [
              {
                name: 'plan_actions',
                args: {
                  tasks: [
                    { id: 'a', title: 'Write a.txt', description: 'write a.txt', depends_on: [] },
                    { id: 'b', title: 'Write b.txt', description: 'write b.txt', depends_on: ['a'] },
                  ],
                },
              },
            ],
          },
          {
            task: 'a',
            toolCalls: [
              { name: 'write_file', args: { path: 'a.txt', content: 'A\n' } },
              { name: 'task_completed', args: { summary: 'wrote a' } },
            ],
          },
          {
            task: 'b',
            toolCalls: [
              { name: 'write_file', args: { path: 'b.txt', content: 'B\n' } },
              { name: 'task_completed', args: { summary: 'wrote b' } },
            ],
          },
          { text: 'Both written.', toolCalls: [{ name: 'final_answer', args: { answer: 'Both written.' } }] },
        ],
      });
      const run = await runCli(
        [
          'run',
          '--json',
          '--yes',
          '--approval',
          'edits',
          '--model',
          `script:${script}`,
          '--cwd',
          workspace,
          'write a then b',
        ],
        { env },
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const events = parseJsonLines(run.stdout);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'completed' });
      expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('B\n');
      expect(existsSync(path.join(workspace, '.taskweave', 'taskweave.db'))).toBe(false);
      const rows = await admin.query(`SELECT key, status FROM "${schema}".tasks ORDER BY sequence`);
      expect(rows.rows.filter((row) => row.key !== null)).toEqual([
        { key: 'a', status: 'completed' },
        { key: 'b', status: 'completed' },
      ]);
      // Another folder sees the same sessions: the store is shared, not the workspace's.
      const elsewhere = await tempWorkspaceRoot('taskweave-store-pg-other-');
      const listed = await runCli(['sessions', 'list', '--json', '--cwd', elsewhere], { env });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject([
        { goal: 'write a then b', last_run_status: 'completed' },
      ]);
      expectNoPassword(run);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });
});
