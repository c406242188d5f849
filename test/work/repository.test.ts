import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRepository } from '../../src/work/repository.js';
import { git, workspaceFolder } from './work-fixture.js';

/** A repository with one commit (format: sha1 unless asked). */
function repository(format: 'sha1' | 'sha256' = 'sha1'): string {
  const root = workspaceFolder('plain');
  git(root, 'init', '-q', '-b', 'main', `--object-format=${format}`);
  git(root, 'config', 'user.email', 'user@example.com');
  git(root, 'config', 'user.name', 'User');
  writeFileSync(path.join(root, 'a.txt'), 'a\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'first');
  return root;
}

describe('findRepository: what a workspace’s repository is, from one git process', () => {
  it('a folder inside a repository: its top, its prefix, the common folder, the index and the objects', async () => {
    const root = repository();
    mkdirSync(path.join(root, 'web', 'src'), { recursive: true });
    expect(await findRepository(path.join(root, 'web', 'src'))).toEqual({
      top: root,
      prefix: 'web/src/',
      objects: path.join(root, '.git', 'objects'),
      commonDir: path.join(root, '.git'),
      index: path.join(root, '.git', 'index'),
      format: 'sha1',
    });
  });

  it('a linked worktree: its own index, the common folder and objects of the repository it belongs to', async () => {
    const root = repository();
    const linked = path.join(workspaceFolder('plain'), 'linked');
    git(root, 'worktree', 'add', '-q', linked);
    expect(await findRepository(linked)).toEqual({
      top: linked,
      prefix: '',
      objects: path.join(root, '.git', 'objects'),
      commonDir: path.join(root, '.git'),
      index: path.join(root, '.git', 'worktrees', 'linked', 'index'),
      format: 'sha1',
    });
  });

  it('a sha256 repository says so; a folder in no repository has none', async () => {
    expect((await findRepository(repository('sha256')))?.format).toBe('sha256');
    expect(await findRepository(workspaceFolder('plain'))).toBeNull();
  });
});
