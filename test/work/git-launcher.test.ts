import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../src/work/git.js';
import {
  gitHelperPid,
  launchGitFromHelper,
  launchThroughHelper,
  stopGitHelper,
} from '../../src/work/git-launcher.js';

async function repository(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-launcher-'));
  await git(['init', '-q'], { cwd: folder });
  return folder;
}

/** Starts the helper and waits until it takes commands. */
async function helperReady(cwd: string): Promise<number> {
  launchGitFromHelper();
  for (let tries = 0; tries < 200; tries++) {
    await git(['rev-parse', '--git-dir'], { cwd });
    const pid = gitHelperPid();
    if (pid !== undefined) return pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the helper never became ready');
}

afterEach(() => stopGitHelper());

describe('git commands started by the helper process', () => {
  it('are started by the helper, not by this process, and return what git printed', async () => {
    const cwd = await repository();
    const pid = await helperReady(cwd);
    expect(pid).not.toBe(process.pid);
    const parent = launchThroughHelper('sh', ['-c', 'echo $PPID'], { cwd, env: process.env });
    expect(Number((await parent)?.stdout.toString().trim())).toBe(pid);
    expect((await git(['rev-parse', '--show-toplevel'], { cwd })).toString().trim()).toBe(cwd);
  });

  it('give input (known later too), bytes unchanged, and the same errors as a command started here', async () => {
    const cwd = await repository();
    await helperReady(cwd);
    const bytes = Buffer.from([0, 255, 10, 128, 1]);
    let give: (input: Buffer) => void = () => {};
    const later = new Promise<Buffer>((resolve) => {
      give = resolve;
    });
    const hashing = git(['hash-object', '-w', '--stdin'], { cwd, input: later });
    setTimeout(() => give(bytes), 20);
    const id = (await hashing).toString().trim();
    expect(await git(['cat-file', 'blob', id], { cwd })).toEqual(bytes);
    const fromHelper = await git(['rev-parse', '--verify', 'no-such-ref'], { cwd }).catch((error) => error);
    stopGitHelper();
    const fromHere = await git(['rev-parse', '--verify', 'no-such-ref'], { cwd }).catch((error) => error);
    expect(gitHelperPid()).toBeUndefined();
    expect(fromHelper).toBeInstanceOf(Error);
    expect(fromHelper.name).toBe('GitError');
    expect(fromHelper.message).toBe(fromHere.message);
  });

  it('end a command when its signal aborts', async () => {
    const cwd = await repository();
    await helperReady(cwd);
    const controller = new AbortController();
    // Waits for input that never comes.
    const waiting = git(['hash-object', '--stdin'], {
      cwd,
      input: new Promise(() => {}),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toThrow(/could not run: The operation was aborted/);
  });

  it('fail a command the helper was running when it died, start the next here, then in a new helper', async () => {
    const cwd = await repository();
    const pid = await helperReady(cwd);
    await writeFile(path.join(cwd, 'f.txt'), 'x');
    const running = git(['hash-object', '--stdin'], { cwd, input: new Promise(() => {}) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(pid, 'SIGKILL');
    await expect(running).rejects.toThrow(/could not run: the helper process that started it ended/);
    // Started here (no helper ready), which starts a new helper for the commands after.
    expect((await git(['hash-object', 'f.txt'], { cwd })).toString().trim()).toMatch(/^[0-9a-f]{40}$/);
    const again = await helperReady(cwd);
    expect(again).not.toBe(pid);
  });
});
