import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS } from '../../src/store/sqlite/database.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** A program that holds the database's write lock for `ms`, printing `locked` once it has it. */
async function writeLocker(folder: string): Promise<string> {
  const file = path.join(folder, 'locker.cjs');
  await writeFile(
    file,
    `const Database = require(${JSON.stringify(BETTER_SQLITE3)});
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, Number(process.argv[3]));
`,
  );
  return file;
}

async function scriptOf(turns: unknown[]): Promise<string> {
  return `script:${await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns })}`;
}

async function runOnce(workspace: string): Promise<void> {
  const model = await scriptOf([{ text: 'Ready.' }]);
  expect((await runCli(['run', '--model', model, '--cwd', workspace, 'set up'])).code).toBe(0);
}

describe('a run whose database is removed or overwritten mid-run ends as failed, with the reason', () => {
  for (const [what, command, problem] of [
    ['removed', 'rm -rf .taskweave', 'was deleted'],
    ['overwritten', 'head -c 200000 /dev/urandom > .taskweave/taskweave.db', 'was overwritten'],
  ] as const) {
    it(`the database ${what} by a command (--sandbox off): failed, never completed`, async () => {
      const workspace = await tempWorkspaceRoot('taskweave-store-gone-');
      await runOnce(workspace);
      const model = await scriptOf([
        { toolCalls: [{ name: 'run_command', args: { command } }] },
        { text: 'All done.' },
      ]);
      const run = await runCli([
        'run',
        '--approval',
        'auto',
        '--sandbox',
        'off',
        '--model',
        model,
        '--cwd',
        workspace,
        'wreck it',
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('✓ completed');
      expect(`${run.stdout}${run.stderr}`).toContain(`taskweave.db ${problem} while taskweave had it open`);
      expect(run.stderr).not.toContain('    at ');
      // The next start works, or says plainly what is wrong with the file: never a stack trace.
      const next = await runCli([
        'run',
        '--model',
        await scriptOf([{ text: 'Fine.' }]),
        '--cwd',
        workspace,
        'again',
      ]);
      expect(next.stderr).not.toContain('    at ');
      if (next.code !== 0) expect(next.stderr).toMatch(/taskweave\.db is (not an SQLite database|a damaged)/);
    });
  }
});

describe('a database deleted from another shell while a run waits for its model', () => {
  it('the run ends with its final status, failed with the reason (exit 1), not an error and no end', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-store-gone-');
    await runOnce(workspace);
    const model = await scriptOf([
      // The model takes its time: the database is deleted meanwhile.
      { latencyMs: 1500, toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x\n' } }] },
      { text: 'All done.' },
    ]);
    let deleted: Promise<void> | undefined;
    const run = await runCli(
      ['run', '--approval', 'auto', '--json', '--model', model, '--cwd', workspace, 'work while deleted'],
      {
        onSpawn: (child) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (deleted === undefined && chunk.toString().includes('"agent_start"'))
              deleted = rm(path.join(workspace, '.taskweave', 'taskweave.db'));
          });
        },
      },
    );
    await deleted;
    expect(deleted).toBeDefined();
    expect(run.stderr).not.toContain('    at ');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const events = parseJsonLines(run.stdout);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    const reason = /taskweave\.db was deleted while taskweave had it open/;
    expect(events.at(-2)).toMatchObject({
      type: 'agent_update',
      update_type: 'agent_completion',
      status: 'failed',
      reason: expect.stringMatching(reason),
    });
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'failed' });
  });
});

describe('a database locked by another process for longer than the busy timeout', () => {
  it('at start: waits the busy timeout, then fails with a clear message (exit 1, no stack trace)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-locked-');
    await runOnce(workspace);
    const locker = await writeLocker(workspace);
    const holder = spawn(
      process.execPath,
      [locker, path.join(workspace, '.taskweave', 'taskweave.db'), '20000'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      const started = Date.now();
      const run = await runCli([
        'run',
        '--model',
        await scriptOf([{ text: 'Fine.' }]),
        '--cwd',
        workspace,
        'blocked',
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/taskweave\.db is locked by another process \(waited 5 s\)/);
      expect(run.stderr).not.toContain('    at ');
      expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS);
    } finally {
      holder.kill();
    }
  });

  it('mid-run: the run fails with the reason and its goal is not left in progress', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-locked-');
    await runOnce(workspace);
    const locker = await writeLocker(workspace);
    // The command takes the lock in the background for 12 s. When it ends, the record of the
    // running command waits 5 s and gives up (that record only guards against a kill -9), the
    // run's next write waits 5 s more and fails; the lock is gone before the goal's own failure
    // is written.
    const model = await scriptOf([
      {
        toolCalls: [
          {
            name: 'run_command',
            args: {
              command: `(node ${locker} .taskweave/taskweave.db 12000 > lock.log &) ; for i in $(seq 200); do grep -q locked lock.log 2>/dev/null && break; sleep 0.05; done; cat lock.log`,
            },
          },
        ],
      },
      { text: 'All done.' },
    ]);
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--sandbox',
      'off',
      '--model',
      model,
      '--cwd',
      workspace,
      'locked goal',
    ]);
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(/is locked by another process \(waited 5 s\)/);
    expect(run.stdout).not.toContain('✓ completed');
    expect(run.stderr).not.toContain('    at ');
    const tasks = await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace]);
    const goal = JSON.parse(tasks.stdout).find((task: { title: string }) => task.title === 'locked goal');
    expect(goal.status).not.toBe('in_progress');
  }, 60_000);
});
