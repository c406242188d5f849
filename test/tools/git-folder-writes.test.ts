import { execFileSync } from 'node:child_process';
import { chmod, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/builtin/edit-file.js';
import { readFileTool } from '../../src/tools/builtin/read-file.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const FSMONITOR_CONFIG = (marker: string) => `[core]\n\tfsmonitor = "touch ${marker}; false"\n`;

describe('file tools and .git folders (issue 23, item 1)', () => {
  const bed = useToolTestBed();

  function git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: bed().root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  }

  it("refuses write_file on .git/config, so a planted core.fsmonitor never runs on the user's next git", async () => {
    git('init', '-q', '.');
    const before = await bed().read('.git/config');
    const marker = path.join(bed().outside, 'PWNED');
    const result = await writeFileTool.run(
      { path: '.git/config', content: FSMONITOR_CONFIG(marker) },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /inside a \.git folder.*git runs or follows on the user's next git command/s,
    );
    expect(await bed().read('.git/config')).toBe(before);
    git('status', '--short');
    await expect(stat(marker)).rejects.toThrow();
  });

  it('refuses write_file over an existing executable hook (its mode would have been kept)', async () => {
    git('init', '-q', '.');
    const hook = await bed().write('.git/hooks/pre-commit', '#!/bin/sh\nexit 0\n');
    await chmod(hook, 0o755);
    const result = await writeFileTool.run(
      { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch PWNED\n' },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(await readFile(hook, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('refuses any path through a .git entry at any depth, however spelled, and .git files themselves', async () => {
    git('init', '-q', '.');
    await bed().write('sub/.git', 'gitdir: ../.git\n');
    await bed().write('vendor/lib/.git/config', '[core]\n');
    await symlink(path.join(bed().root, '.git'), path.join(bed().root, 'gitlink'));
    for (const target of [
      '.git/config',
      '.git/commondir',
      '.git/config.worktree',
      '.git/hooks/post-checkout',
      './.git/info/../config',
      'src/../.git/config',
      path.join(bed().root, '.git/config'),
      'vendor/lib/.git/config',
      'vendor/lib/.git/hooks/pre-commit',
      'new/repo/.git/config',
      'sub/.git',
      '.git',
      '.GIT/config',
      'gitlink/config',
    ]) {
      const result = await writeFileTool.run({ path: target, content: FSMONITOR_CONFIG('/x') }, bed().ctx);
      expect(result.isError, target).toBe(true);
      expect(result.output, target).toContain('inside a .git folder');
    }
    expect(await bed().read('sub/.git')).toBe('gitdir: ../.git\n');
    expect(await bed().read('vendor/lib/.git/config')).toBe('[core]\n');
    await expect(stat(path.join(bed().root, 'new'))).rejects.toThrow();
  });

  it('refuses edit_file on .git/config even after the file was read (reading stays allowed)', async () => {
    git('init', '-q', '.');
    const read = await readFileTool.run({ path: '.git/config' }, bed().ctx);
    expect(read.isError, read.output).toBe(false);
    const edit = await editFileTool.run(
      { path: '.git/config', edits: [{ find: '[core]', replace: '[core]\n\tfsmonitor = evil' }] },
      bed().ctx,
    );
    expect(edit.isError).toBe(true);
    expect(edit.output).toContain('inside a .git folder');
    expect(await bed().read('.git/config')).not.toContain('fsmonitor');
  });

  it('still writes files whose names merely start with .git', async () => {
    for (const target of ['.gitignore', '.github/workflows/ci.yml', '.gitattributes', 'docs/.git-notes.md']) {
      const result = await writeFileTool.run({ path: target, content: 'ok\n' }, bed().ctx);
      expect(result.isError, `${target}: ${result.output}`).toBe(false);
    }
  });
});
