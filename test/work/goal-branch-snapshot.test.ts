import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uncommittedCommit } from '../../src/work/goal-branch.js';
import { git, userGitState, workspaceFolder } from './work-fixture.js';

/** A repository with tracked files, then every kind of uncommitted change beside them. */
function dirtyRepository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  writeFileSync(path.join(root, 'kept.txt'), 'kept\n');
  writeFileSync(path.join(root, 'edited.txt'), 'before\n');
  writeFileSync(path.join(root, 'deleted.txt'), 'gone soon\n');
  mkdirSync(path.join(root, 'src'));
  for (let index = 0; index < 50; index += 1)
    writeFileSync(path.join(root, 'src', `f${index}.txt`), `${index}\n`);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  writeFileSync(path.join(root, 'edited.txt'), 'after\n');
  rmSync(path.join(root, 'deleted.txt'));
  writeFileSync(path.join(root, 'untracked.txt'), 'new\n');
  writeFileSync(path.join(root, 'staged.txt'), 'staged\n');
  git(root, 'add', 'staged.txt');
  mkdirSync(path.join(root, 'build'));
  writeFileSync(path.join(root, 'build', 'out.js'), 'ignored\n');
  return root;
}

/** The files of a commit: path → content. */
function filesOf(root: string, commit: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of git(root, 'ls-tree', '-r', '--name-only', commit).split('\n').filter(Boolean))
    files[file] = git(root, 'show', `${commit}:${file}`);
  return files;
}

function expectWorkingTree(root: string, commit: string): void {
  const files = filesOf(root, commit);
  expect(files['edited.txt']).toBe('after\n');
  expect(files['untracked.txt']).toBe('new\n');
  expect(files['staged.txt']).toBe('staged\n');
  expect(files['kept.txt']).toBe('kept\n');
  expect(files['src/f49.txt']).toBe('49\n');
  expect(files).not.toHaveProperty('deleted.txt');
  expect(files).not.toHaveProperty('build/out.js');
  expect(git(root, 'log', '-1', '--format=%s', commit).trim()).toBe(
    'taskweave: uncommitted changes at the start',
  );
}

describe('the commit of the files as they are on disk (a goal branch’s base)', () => {
  it('holds edits, deletions, untracked and staged files, not ignored ones, and leaves the user’s index, HEAD and status as they were', async () => {
    const root = dirtyRepository();
    const before = userGitState(root);
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const commit = await uncommittedCommit(root, head);
    expect(commit).not.toBe(head);
    expect(git(root, 'rev-parse', `${commit}^`).trim()).toBe(head);
    expectWorkingTree(root, commit);
    expect(userGitState(root)).toBe(before);
  });

  it('is HEAD itself when nothing differs', async () => {
    const root = dirtyRepository();
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'all');
    const head = git(root, 'rev-parse', 'HEAD').trim();
    expect(await uncommittedCommit(root, head)).toBe(head);
  });

  it('works from HEAD’s tree when the user’s index cannot be copied and used (a split index)', async () => {
    const root = dirtyRepository();
    git(root, 'update-index', '--split-index');
    const before = userGitState(root);
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const commit = await uncommittedCommit(root, head);
    expectWorkingTree(root, commit);
    expect(userGitState(root)).toBe(before);
  });
});
