import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endGitLeftBy, WORKER_PID_VARIABLE } from '../../src/runtime/setup/worker-identity.js';

/*
 * A worker killed with `kill -9` takes only itself: a git command it started goes on, holding
 * its lock files in the clone the next worker of the machine takes the task up in at once.
 * endGitLeftBy ends such commands (found by the dead worker's pid in their environment) and
 * waits until they are gone, git taking its locks away as it ends.
 */

const folders: string[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The pid of a process that has ended (spawned, exited, reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid ?? 0;
  await new Promise((resolve) => child.once('close', resolve));
  return pid;
}

function repository(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'taskweave-left-git-'));
  folders.push(folder);
  const run = (...args: string[]) => execFileSync('git', args, { cwd: folder, stdio: 'ignore' });
  run('init', '-q');
  run('config', 'user.email', 't@example.com');
  run('config', 'user.name', 'T');
  writeFileSync(path.join(folder, 'a.txt'), 'a\n');
  run('add', 'a.txt');
  run('commit', '-q', '-m', 'a');
  return folder;
}

/**
 * A git process moving a branch, stopped half-way with the branch's lock held (a transaction
 * prepared and not yet committed), as a worker's `git merge` or `push` is while it runs.
 */
async function branchMoveHeld(folder: string, worker: number): Promise<ChildProcess> {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: folder, encoding: 'utf8' }).trim();
  const child = spawn('git', ['update-ref', '--stdin'], {
    cwd: folder,
    env: { ...process.env, [WORKER_PID_VARIABLE]: String(worker) },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  children.push(child);
  child.stdin?.write(`start\nupdate refs/heads/moving ${head}\nprepare\n`);
  let said = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  await until(() => said.includes('prepare: ok'));
  return child;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the git commands a killed worker left running', () => {
  it('end, their lock taken away, before the next worker works in the repository', async () => {
    const folder = repository();
    const dead = await deadPid();
    const left = await branchMoveHeld(folder, dead);
    const gone = new Promise((resolve) => left.once('close', (_code, signal) => resolve(signal)));
    const lock = path.join(folder, '.git', 'refs', 'heads', 'moving.lock');
    expect(existsSync(lock)).toBe(true);

    expect(await endGitLeftBy(dead)).toBe(1);

    expect(await gone).toBe('SIGTERM');
    expect(existsSync(lock)).toBe(false);
    execFileSync('git', ['branch', 'moving'], { cwd: folder });
  });

  it('leaves alone git started by a live process and by other workers', async () => {
    const folder = repository();
    const dead = await deadPid();
    const own = await branchMoveHeld(folder, process.pid);

    expect(await endGitLeftBy(dead)).toBe(0);
    expect(own.exitCode).toBeNull();
    expect(own.signalCode).toBeNull();
  });
});
