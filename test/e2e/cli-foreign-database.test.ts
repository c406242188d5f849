import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const GOAL = 'queued by the repository';

/**
 * A repository that ships `.taskweave/taskweave.db` with a goal queued in it: the database is
 * made in one folder (`tasks add`) and copied into a fresh one, as a clone would bring it.
 */
async function shippedDatabase(): Promise<{ workspace: string; script: string }> {
  const origin = await tempWorkspaceRoot('taskweave-db-origin-');
  const added = await runCli(['tasks', 'add', GOAL, '-C', origin]);
  expect(added.code, added.stderr).toBe(0);
  const workspace = await tempWorkspaceRoot('taskweave-db-clone-');
  await mkdir(path.join(workspace, '.taskweave'));
  await copyFile(
    path.join(origin, '.taskweave', 'taskweave.db'),
    path.join(workspace, '.taskweave', 'taskweave.db'),
  );
  // The model does what the queued goal says: writes PWNED (with --approval auto, nothing is asked).
  const script = await writeScript(await tempWorkspaceRoot('taskweave-db-script-'), {
    turns: [
      { when: GOAL, toolCalls: [{ name: 'write_file', args: { path: 'PWNED', content: 'x' } }] },
      { text: 'Done.' },
    ],
  });
  return { workspace, script };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function pendingTitles(workspace: string): Promise<string[]> {
  const listed = await runCli(['tasks', 'list', '--json', '-C', workspace]);
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { title: string; status: string }[])
    .filter((task) => task.status === 'pending')
    .map((task) => task.title);
}

function startServe(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', ...args], {
    env: { ...process.env, NO_COLOR: '1', TASKWEAVE_MODEL: '' },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  const closed = new Promise((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

describe('a database copied or cloned from another folder', { timeout: 90_000 }, () => {
  it('serve does not run the goal queued in it; --trust-db makes it this workspace’s and runs it', async () => {
    const { workspace, script } = await shippedDatabase();
    const args = ['-C', workspace, '--model', `script:${script}`, '--approval', 'auto'];
    const serve = startServe(args);
    try {
      await waitFor(() => serve.output().includes('--trust-db'), 'the notice about the foreign database');
      expect(serve.output()).toContain('was not created for this workspace');
      expect(serve.output()).toContain('taskweave-db-origin-');
      // Longer than many of the worker's polls: the goal stays queued and nothing is written.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await exists(path.join(workspace, 'PWNED'))).toBe(false);
      expect(await pendingTitles(workspace)).toEqual([GOAL]);
    } finally {
      await stop(serve.child);
    }

    const trusted = startServe([...args, '--trust-db']);
    try {
      await waitFor(() => exists(path.join(workspace, 'PWNED')), 'the trusted goal to run');
      await waitFor(async () => (await pendingTitles(workspace)).length === 0, 'the queue to empty');
    } finally {
      await stop(trusted.child);
    }
    // Made this workspace's: the next serve is not told about it again.
    const again = await runCli(['work', '-C', workspace, '--model', `script:${script}`]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout + again.stderr).not.toContain('--trust-db');
  });

  it('work leaves the goal too, saying why; work --trust-db runs it', async () => {
    const { workspace, script } = await shippedDatabase();
    const args = ['work', '-C', workspace, '--model', `script:${script}`, '--approval', 'auto'];
    const left = await runCli(args, { env: { TASKWEAVE_MODEL: '' } });
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain('was not created for this workspace');
    expect(await exists(path.join(workspace, 'PWNED'))).toBe(false);
    expect(await pendingTitles(workspace)).toEqual([GOAL]);

    const ran = await runCli([...args, '--trust-db'], { env: { TASKWEAVE_MODEL: '' } });
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    expect(await exists(path.join(workspace, 'PWNED'))).toBe(true);
    expect(await pendingTitles(workspace)).toEqual([]);
  });

  it('on a terminal, work asks (naming where it was created): n leaves the goal, y works it', async () => {
    const { workspace, script } = await shippedDatabase();
    const args = ['work', '-C', workspace, '--model', `script:${script}`, '--approval', 'auto'];
    const env = { TASKWEAVE_MODEL: '', NO_COLOR: '1' };
    const question = 'Work the tasks queued in it here? [y/N]';
    const declined = PtyRun.start(args, { env });
    await declined.waitFor(question);
    expect(declined.text()).toContain('was not created for this workspace:');
    expect(declined.text()).toContain('taskweave-db-origin-');
    declined.type('n\r');
    expect(await declined.exited, declined.text()).toBe(0);
    expect(await exists(path.join(workspace, 'PWNED'))).toBe(false);
    expect(await pendingTitles(workspace)).toEqual([GOAL]);

    const accepted = PtyRun.start(args, { env });
    await accepted.waitFor(question);
    accepted.type('y\r');
    expect(await accepted.exited, accepted.text()).toBe(0);
    expect(await exists(path.join(workspace, 'PWNED'))).toBe(true);
    expect(await pendingTitles(workspace)).toEqual([]);
  });

  it('a database made in this folder runs its queued work as before', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-db-own-');
    expect((await runCli(['tasks', 'add', GOAL, '-C', workspace])).code).toBe(0);
    const script = await writeScript(workspace, { turns: [{ when: GOAL, text: 'Done.' }] }, 'script.json');
    const ran = await runCli(['work', '-C', workspace, '--model', `script:${script}`]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).not.toContain('--trust-db');
    expect(await pendingTitles(workspace)).toEqual([]);
  });
});
