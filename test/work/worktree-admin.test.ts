import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addWorktree,
  commitExclusions,
  listWorktrees,
  removeWorktree,
  unlockWorktree,
} from '../../src/work/worktree.js';
import { git, workspaceFolder } from './work-fixture.js';

/** A repository with one commit and a .gitignore; a worktree of it at `<git>/taskweave/worktrees/g/slot`. */
async function repositoryWithWorktree() {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules\n*.log\n');
  writeFileSync(path.join(root, 'a.txt'), 'a\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  const folder = path.join(root, '.git', 'taskweave', 'worktrees', 'g', 'slot');
  await addWorktree({ top: root, folder, start: 'HEAD' });
  return { root, folder };
}

describe('commitExclusions', () => {
  it('leaves out of a commit only the names git would add, asking for all of them at once', async () => {
    const { folder } = await repositoryWithWorktree();
    const names = ['node_modules', '.env', 'debug log.log', 'sub/.env.local'];
    expect(await commitExclusions(folder, names)).toEqual([
      ':(exclude,top,literal).env',
      ':(exclude,top,literal)sub/.env.local',
    ]);
    expect(await commitExclusions(folder, [])).toEqual([]);
  });

  it('asks name by name when git refuses one of them (a path beyond a link), with the same answer for the rest', async () => {
    const { folder } = await repositoryWithWorktree();
    mkdirSync(path.join(folder, 'real'));
    symlinkSync('real', path.join(folder, 'linked'));
    // git fails the whole question for this one: "beyond a symbolic link".
    const refused = ['linked/node_modules', 'node_modules', '.env'];
    expect(git(folder, 'check-ignore', '--no-index', '-q', '--', 'node_modules')).toBe('');
    expect(await commitExclusions(folder, refused)).toEqual([
      ':(exclude,top,literal)linked/node_modules',
      ':(exclude,top,literal).env',
    ]);
  });
});

describe('unlockWorktree', () => {
  it("clears a killed git's locks in a worktree, read from its .git file", async () => {
    const { root, folder } = await repositoryWithWorktree();
    const gitDir = path.join(root, '.git', 'worktrees', 'slot');
    expect(existsSync(gitDir)).toBe(true);
    writeFileSync(path.join(gitDir, 'index.lock'), '');
    writeFileSync(path.join(gitDir, 'HEAD.lock'), '');
    git(root, 'worktree', 'lock', folder);
    expect(await unlockWorktree(root, folder)).toEqual({ hasIndex: true });
    expect(existsSync(path.join(gitDir, 'index.lock'))).toBe(false);
    expect(existsSync(path.join(gitDir, 'HEAD.lock'))).toBe(false);
    expect((await listWorktrees(root)).find((entry) => entry.path === folder)?.locked).toBe(false);
  });

  it('says a worktree whose git folder is gone, or a folder outside any repository, has no index', async () => {
    const { root, folder } = await repositoryWithWorktree();
    rmSync(path.join(root, '.git', 'worktrees', 'slot'), { recursive: true });
    expect(await unlockWorktree(root, folder)).toEqual({ hasIndex: false });
    const plain = workspaceFolder('plain');
    expect(await unlockWorktree(root, plain)).toEqual({ hasIndex: false });
  });
});

describe('removeWorktree', () => {
  it('removes a worktree git knows, one whose folder is gone, and a folder git does not know', async () => {
    const { root, folder } = await repositoryWithWorktree();
    await removeWorktree(root, folder);
    expect(existsSync(folder)).toBe(false);
    expect((await listWorktrees(root)).map((entry) => entry.path)).toEqual([root]);

    // Registered, its folder deleted under git: `worktree remove` fails, prune forgets it.
    await addWorktree({ top: root, folder, start: 'HEAD' });
    rmSync(folder, { recursive: true });
    expect((await listWorktrees(root)).some((entry) => entry.path === folder)).toBe(true);
    await removeWorktree(root, folder);
    expect((await listWorktrees(root)).map((entry) => entry.path)).toEqual([root]);

    // A folder left where a worktree was, unknown to git.
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'left.txt'), 'x');
    await removeWorktree(root, folder);
    expect(existsSync(folder)).toBe(false);
  });
});

/*
 * Issue 40, item 3: `crash-worktrees` once left `slot-2/locked`: a `git worktree add` killed
 * after it made and locked its registration but before it wrote the registration's `gitdir` (git
 * then no longer lists it and never prunes it, being locked), or before its `commondir` (git
 * cannot remove it).
 */
describe('removeWorktree after a git worktree add killed half-way', () => {
  const registrations = (root: string) =>
    existsSync(path.join(root, '.git', 'worktrees')) ? readdirSync(path.join(root, '.git', 'worktrees')) : [];

  it('removes a registration killed before its gitdir was written, still locked', async () => {
    const { root, folder } = await repositoryWithWorktree();
    const other = path.join(root, '.git', 'taskweave', 'worktrees', 'h', 'other');
    await addWorktree({ top: root, folder: other, start: 'HEAD' });
    const registration = path.join(root, '.git', 'worktrees', 'slot');
    rmSync(path.join(registration, 'gitdir'));
    writeFileSync(path.join(registration, 'locked'), 'initializing');
    await removeWorktree(root, folder);
    expect(registrations(root)).toEqual(['other']);
    expect(existsSync(folder)).toBe(false);
    expect((await listWorktrees(root)).map((entry) => entry.path)).toEqual([root, other]);
  });
});
