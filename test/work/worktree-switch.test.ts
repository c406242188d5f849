import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWorktree, switchWorktree } from '../../src/work/worktree.js';
import { git, workspaceFolder } from './work-fixture.js';

/*
 * A worktree switched to a new branch started at a ref that another task's merge moves at the
 * same moment: the branch and the files must be of one commit. `git checkout -B <branch> <ref>`
 * checks out the files of the ref's commit but creates the branch from the ref's name again at its
 * end; with the ref moved in between, the branch held a merge whose work the files lacked, and
 * the task's first commit undid it (a task's merged work lost, seen in the kill -9 tests).
 */

const stoppers: (() => void)[] = [];
afterEach(() => {
  for (const stop of stoppers.splice(0)) stop();
});

/** Moves `ref` between two commits as fast as git can, in a process of its own, until stopped. */
function flipRef(root: string, ref: string, one: string, two: string): void {
  const child = spawn(
    'sh',
    ['-c', `while :; do git update-ref ${ref} ${one}; git update-ref ${ref} ${two}; done`],
    { cwd: root, stdio: 'ignore' },
  );
  stoppers.push(() => child.kill('SIGKILL'));
}

describe('switchWorktree', () => {
  it('starts the branch and checks out the files at one commit while the start ref moves', async () => {
    const root = workspaceFolder('git');
    writeFileSync(path.join(root, 'shared.txt'), 'one\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'one');
    const one = git(root, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(root, 'shared.txt'), 'two\n');
    git(root, 'commit', '-qam', 'two');
    const two = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'update-ref', 'refs/heads/goal', one);
    const folder = path.join(root, '.git', 'taskweave', 'worktrees', 'goal', 'slot-1');
    await addWorktree({ top: root, folder, start: one });
    flipRef(root, 'refs/heads/goal', one, two);

    const mismatches: string[] = [];
    for (let round = 0; round < 60; round++) {
      const branch = `goal.task-${round}`;
      await switchWorktree({
        top: root,
        folder,
        branch,
        start: 'refs/heads/goal',
        keep: [],
        keepIgnored: false,
      });
      // The files and the index are those of the branch's commit: nothing to commit.
      const status = git(folder, 'status', '--porcelain');
      if (status !== '') mismatches.push(`${branch}: ${status.trim()}`);
    }
    expect(mismatches).toEqual([]);
  }, 60_000);
});
