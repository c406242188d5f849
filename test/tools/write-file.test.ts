import { chmod, mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/builtin/edit-file.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import { useToolTestBed } from '../helpers/tool-context.js';

describe('write_file', () => {
  const bed = useToolTestBed();

  it('creates a file and its missing parent folders', async () => {
    const result = await writeFileTool.run({ path: 'src/deep/er/index.ts', content: 'a\nb\n' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(await bed().read('src/deep/er/index.ts')).toBe('a\nb\n');
    expect(result.output).toBe('Created src/deep/er/index.ts (2 lines, 4 bytes).');
    expect(result.display).toBe('created, 2 lines');
  });

  it('overwrites an existing file and keeps its permissions', async () => {
    const absolute = await bed().write('run.sh', 'old\n');
    await chmod(absolute, 0o755);
    const result = await writeFileTool.run({ path: 'run.sh', content: '#!/bin/sh\necho new\n' }, bed().ctx);
    expect(result.display).toBe('overwrote, 2 lines');
    expect(await bed().read('run.sh')).toBe('#!/bin/sh\necho new\n');
    expect((await stat(absolute)).mode & 0o777).toBe(0o755);
  });

  it('writes atomically through a temp file and leaves none behind', async () => {
    await bed().write('dir/keep.txt', 'x');
    await writeFileTool.run({ path: 'dir/a.txt', content: 'one' }, bed().ctx);
    await writeFileTool.run({ path: 'dir/a.txt', content: 'two' }, bed().ctx);
    expect((await readdir(path.join(bed().root, 'dir'))).sort()).toEqual(['a.txt', 'keep.txt']);
    expect(await bed().read('dir/a.txt')).toBe('two');
  });

  it("refuses taskweave's own folder (.taskweave/), directly or through a link, for write and edit", async () => {
    const database = await bed().write('.taskweave/taskweave.db', 'the store');
    await symlink(path.join(bed().root, '.taskweave'), path.join(bed().root, 'data'));
    for (const target of [
      '.taskweave/taskweave.db',
      '.taskweave/config.json',
      'data/taskweave.db',
      './.taskweave',
    ]) {
      const result = await writeFileTool.run({ path: target, content: 'x' }, bed().ctx);
      expect(result.isError, target).toBe(true);
      expect(result.output).toContain("taskweave's own data");
    }
    const edit = await editFileTool.run(
      { path: '.taskweave/taskweave.db', edits: [{ find: 'the store', replace: 'gone' }] },
      bed().ctx,
    );
    expect(edit.isError).toBe(true);
    expect(edit.output).toContain("taskweave's own data");
    expect(await readFile(database, 'utf8')).toBe('the store');
    // A name that merely starts the same is an ordinary file.
    expect((await writeFileTool.run({ path: '.taskweave-notes.md', content: 'ok' }, bed().ctx)).isError).toBe(
      false,
    );
  });

  it('counts bytes, not characters, and a last line without a line break', async () => {
    const result = await writeFileTool.run({ path: 'u.txt', content: 'é\nno break' }, bed().ctx);
    expect(result.output).toBe('Created u.txt (2 lines, 11 bytes).');
  });

  it('records what it wrote, so edit_file may change the file without reading it first', async () => {
    await writeFileTool.run({ path: 'a.txt', content: 'hello\n' }, bed().ctx);
    const edit = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'hello', replace: 'bye' }] },
      bed().ctx,
    );
    expect(edit.isError).toBe(false);
    expect(await bed().read('a.txt')).toBe('bye\n');
  });

  it('refuses to replace a folder', async () => {
    await mkdir(path.join(bed().root, 'src'));
    const result = await writeFileTool.run({ path: 'src', content: 'x' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('src is a folder');
  });

  it('refuses paths outside the workspace: .., absolute, a symlinked folder and a dangling symlink', async () => {
    const { root, outside } = bed();
    await symlink(outside, path.join(root, 'out-dir'));
    await symlink(path.join(outside, 'created-by-link.txt'), path.join(root, 'dangling.txt'));
    for (const requested of [
      '../outside/a.txt',
      path.join(outside, 'b.txt'),
      'out-dir/c.txt',
      'dangling.txt',
    ]) {
      const result = await writeFileTool.run({ path: requested, content: 'escaped' }, bed().ctx);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/outside the workspace/);
    }
    expect(await readdir(outside)).toEqual([]);
  });

  it('rejects a missing content with the wrapper message', async () => {
    const result = await writeFileTool.run({ path: 'a.txt' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^The write_file tool was called with invalid arguments:\n- content: /);
    await expect(readFile(path.join(bed().root, 'a.txt'))).rejects.toThrow();
  });
});
