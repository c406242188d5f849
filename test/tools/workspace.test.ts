import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Workspace, WorkspaceError } from '../../src/tools/workspace/workspace.js';
import { useToolTestBed } from '../helpers/tool-context.js';

describe('Workspace', () => {
  const bed = useToolTestBed();

  it('resolves relative and absolute paths inside the root, existing or not', async () => {
    const { workspace, root } = bed();
    expect(await workspace.resolve('src/new/file.ts')).toBe(path.join(root, 'src/new/file.ts'));
    expect(await workspace.resolve(path.join(root, 'a.txt'))).toBe(path.join(root, 'a.txt'));
    expect(await workspace.resolve('.')).toBe(root);
    expect(workspace.relative(path.join(root, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(workspace.relative(root)).toBe('.');
  });

  it('accepts names that merely start with two dots', async () => {
    expect(await bed().workspace.resolve('..notes/todo.md')).toBe(path.join(bed().root, '..notes/todo.md'));
  });

  it('refuses .. escapes and absolute paths outside the root', async () => {
    const { workspace, outside } = bed();
    await expect(workspace.resolve('../outside/x')).rejects.toThrow(WorkspaceError);
    await expect(workspace.resolve('src/../../x')).rejects.toThrow(/outside the workspace/);
    await expect(workspace.resolve(outside)).rejects.toThrow(/outside the workspace/);
    await expect(workspace.resolve('/etc/passwd')).rejects.toThrow(/outside the workspace/);
  });

  it('refuses symlinks that lead outside, to files, to folders, or dangling', async () => {
    const { workspace, root, outside } = bed();
    await writeFile(path.join(outside, 'secret'), 's');
    await symlink(path.join(outside, 'secret'), path.join(root, 'file-link'));
    await symlink(outside, path.join(root, 'dir-link'));
    await symlink(path.join(outside, 'missing/deeper'), path.join(root, 'dangling'));
    await symlink('dangling', path.join(root, 'chain'));
    for (const requested of ['file-link', 'dir-link/new.txt', 'dangling', 'dangling/child', 'chain']) {
      await expect(workspace.resolve(requested)).rejects.toThrow(/through a symbolic link/);
    }
  });

  it('follows symlinks that stay inside to their target', async () => {
    const { workspace, root } = bed();
    await mkdir(path.join(root, 'real'));
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    await symlink(path.join(root, 'real/not-yet.txt'), path.join(root, 'dangling-inside'));
    expect(await workspace.resolve('alias/a.txt')).toBe(path.join(root, 'real/a.txt'));
    expect(await workspace.resolve('dangling-inside')).toBe(path.join(root, 'real/not-yet.txt'));
  });

  it('refuses to open a missing folder', async () => {
    await expect(Workspace.open(path.join(bed().root, 'nope'))).rejects.toThrow(/does not exist/);
  });
});
