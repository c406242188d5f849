import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { CLI_PATH, type CliResult, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const bwrap = found.bwrap;

/**
 * Runs the CLI with `readOnlyPath` mounted read-only (a real read-only mount: even root cannot
 * write there, unlike a chmod 444 file).
 */
function runCliReadOnly(readOnlyPath: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      bwrap,
      ['--dev-bind', '/', '/', '--ro-bind', readOnlyPath, readOnlyPath, process.execPath, CLI_PATH, ...args],
      { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function workspaceWithHistory(): Promise<string> {
  const workspace = await tempWorkspaceRoot('taskweave-readonly-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
    turns: [{ text: 'Nothing to do.' }],
  });
  const run = await runCli(['run', '--model', `script:${script}`, '--cwd', workspace, 'first goal']);
  expect(run.code, run.stderr).toBe(0);
  expect((await runCli(['tasks', 'add', '--cwd', workspace, 'queued goal'])).code).toBe(0);
  return workspace;
}

describe('a read-only database can still be read', () => {
  for (const which of ['the database file', 'the whole .taskweave folder']) {
    it(`tasks list, sessions list and sessions show work when ${which} is read-only`, async () => {
      const workspace = await workspaceWithHistory();
      const folder = path.join(workspace, '.taskweave');
      const readOnly = which === 'the database file' ? path.join(folder, 'taskweave.db') : folder;
      const before = await readdir(folder);

      const tasks = await runCliReadOnly(readOnly, ['tasks', 'list', '--cwd', workspace]);
      expect(tasks.stderr).toBe('');
      expect(tasks.code).toBe(0);
      expect(tasks.stdout).toContain('queued goal');
      const sessions = await runCliReadOnly(readOnly, ['sessions', 'list', '--cwd', workspace]);
      expect(sessions.stderr).toBe('');
      expect(sessions.stdout).toContain('first goal');
      const show = await runCliReadOnly(readOnly, [
        'sessions',
        'show',
        'last',
        '--events',
        '--cwd',
        workspace,
      ]);
      expect(show.stderr).toBe('');
      expect(show.code).toBe(0);
      expect(show.stdout).toContain('Nothing to do.');
      if (readOnly === folder) expect(await readdir(folder)).toEqual(before);

      // A command that changes the database says clearly that it cannot.
      const add = await runCliReadOnly(readOnly, ['tasks', 'add', '--cwd', workspace, 'another']);
      expect(add.code).not.toBe(0);
      expect(add.stderr).not.toContain('    at ');
    });
  }
});

/** The checkout's root: the folder holding bin/taskweave.js. */
const PACKAGE_ROOT = path.dirname(path.dirname(CLI_PATH));
/** The empty folder the checkout is mounted at for `nobody` (made at the first use). */
let reachable: string | undefined;
afterAll(async () => {
  if (reachable !== undefined) await rmdir(reachable);
});

/**
 * Runs the CLI as a user who does not own the workspace: `nobody` when the tests run as root
 * (root writes through any chmod), the user itself otherwise. `nobody` may not be able to reach
 * the checkout (a clone under a private folder: `mktemp -d`, a home of mode 0700), so it runs the
 * CLI from the checkout mounted read-only at a folder of /tmp anyone can reach, in a mount
 * namespace of its own (bubblewrap, as root), dropping to `nobody` inside it.
 */
async function runCliAsAnotherUser(args: string[]): Promise<CliResult> {
  let command = [process.execPath, CLI_PATH, ...args];
  if (process.getuid?.() === 0) {
    reachable ??= await mkdtemp(path.join('/tmp', 'taskweave-checkout-'));
    await chmod(reachable, 0o755);
    command = [
      bwrap,
      '--dev-bind',
      '/',
      '/',
      '--ro-bind',
      PACKAGE_ROOT,
      reachable,
      'setpriv',
      '--reuid=nobody',
      '--regid=nogroup',
      '--clear-groups',
      process.execPath,
      path.join(reachable, path.relative(PACKAGE_ROOT, CLI_PATH)),
      ...args,
    ];
  }
  const [program, ...rest] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(program as string, rest, {
      env: { ...process.env, NO_COLOR: '1', HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('a .taskweave folder this user may not write (chmod 555, the database 444)', () => {
  it('tasks list and sessions list read it (WAL needs a -shm it cannot create); tasks add says why it cannot', async () => {
    const workspace = await workspaceWithHistory();
    const folder = path.join(workspace, '.taskweave');
    // The other user must be able to reach the workspace, not write in it.
    await chmod(workspace, 0o755);
    await chmod(path.join(folder, 'taskweave.db'), 0o444);
    await chmod(folder, 0o555);
    const before = await readdir(folder);

    const tasks = await runCliAsAnotherUser(['tasks', 'list', '--cwd', workspace]);
    expect(tasks.stderr).toBe('');
    expect(tasks.code).toBe(0);
    expect(tasks.stdout).toContain('queued goal');
    const sessions = await runCliAsAnotherUser(['sessions', 'list', '--cwd', workspace]);
    expect(sessions.stderr).toBe('');
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toContain('first goal');
    expect(await readdir(folder)).toEqual(before);

    const add = await runCliAsAnotherUser(['tasks', 'add', '--cwd', workspace, 'another']);
    expect(add.code).not.toBe(0);
    expect(add.stderr).toContain('taskweave.db or its folder may not be written by this user');
    expect(add.stderr).not.toContain('    at ');
  });
});
