import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitWorktree } from '../../src/work/worktree.js';
import { git, workspaceFolder } from './work-fixture.js';

const identity = {
  GIT_AUTHOR_NAME: 'taskweave',
  GIT_AUTHOR_EMAIL: 'taskweave@example.com',
  GIT_COMMITTER_NAME: 'taskweave',
  GIT_COMMITTER_EMAIL: 'taskweave@example.com',
};

function repository(): string {
  const root = workspaceFolder('git');
  writeFileSync(path.join(root, 'a.txt'), 'one\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  return root;
}

describe('commitWorktree', () => {
  it('commits the changes on the branch, leaving out what is excluded, and nothing when nothing changed', async () => {
    const root = repository();
    const before = git(root, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(root, 'a.txt'), 'two\n');
    writeFileSync(path.join(root, 'kept-out.txt'), 'not mine\n');
    const options = {
      folder: root,
      message: 'step 1',
      excluded: [':(exclude,top,literal)kept-out.txt'],
      identity,
    };
    const commit = await commitWorktree(options);
    expect(commit).toBe(git(root, 'rev-parse', 'main').trim());
    expect(git(root, 'log', '-1', '--format=%P%n%an%n%s', 'main').trim().split('\n')).toEqual([
      before,
      'taskweave',
      'step 1',
    ]);
    expect(git(root, 'show', '--name-only', '--format=', 'main').trim()).toBe('a.txt');
    expect(git(root, 'reflog', '-1', '--format=%gs', 'main').trim()).toBe('commit: step 1');
    expect(await commitWorktree(options)).toBeUndefined();
    expect(git(root, 'rev-parse', 'main').trim()).toBe(commit);
  });

  it('concludes a merge: two parents, and the merge state gone as `git commit` leaves it', async () => {
    const root = repository();
    git(root, 'checkout', '-q', '-b', 'other');
    writeFileSync(path.join(root, 'a.txt'), 'other\n');
    git(root, 'commit', '-q', '-am', 'other');
    git(root, 'checkout', '-q', 'main');
    writeFileSync(path.join(root, 'a.txt'), 'main\n');
    git(root, 'commit', '-q', '-am', 'main');
    expect(() => git(root, 'merge', '-q', 'other')).toThrow();
    writeFileSync(path.join(root, 'a.txt'), 'both\n');
    const commit = await commitWorktree({
      folder: root,
      message: 'resolved',
      excluded: [],
      identity,
      concludeMerge: true,
    });
    expect(
      git(root, 'log', '-1', '--format=%P', commit ?? 'HEAD')
        .trim()
        .split(' '),
    ).toEqual([git(root, 'rev-parse', 'main~1').trim(), git(root, 'rev-parse', 'other').trim()]);
    expect(() => git(root, 'rev-parse', '-q', '--verify', 'MERGE_HEAD')).toThrow();
    expect(git(root, 'status', '--porcelain').trim()).toBe('');
  });
});
