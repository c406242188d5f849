import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  removeLeftOverTempFiles,
  STALE_TEMP_AGE_MS,
  tempPathFor,
} from '../../src/tools/workspace/temp-files.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** A process id no process has (above the kernel's pid_max). */
const NO_SUCH_PID = 4_194_305;

describe('removeLeftOverTempFiles', () => {
  it('removes temporary files of gone writers and old unnamed ones, keeps live and recent ones', async () => {
    const root = await tempWorkspaceRoot('taskweave-tmpfiles-');
    await mkdir(path.join(root, 'a', 'b'), { recursive: true });
    await mkdir(path.join(root, '.git'), { recursive: true });
    const files = {
      gone: `a/b/.x.ts.${NO_SUCH_PID}-aaaaaaaaaaaa.taskweave-tmp`,
      live: path.relative(root, tempPathFor(path.join(root, 'a', 'y.ts'))),
      oldUnnamed: '.z.md.bbbbbbbbbbbb.taskweave-tmp',
      newUnnamed: '.w.md.cccccccccccc.taskweave-tmp',
      inGit: `.git/.q.${NO_SUCH_PID}-dddddddddddd.taskweave-tmp`,
      lookalike: 'a/notes.taskweave-tmp',
    };
    for (const file of Object.values(files)) await writeFile(path.join(root, file), 'half');
    const old = (Date.now() - STALE_TEMP_AGE_MS - 60_000) / 1000;
    await utimes(path.join(root, files.oldUnnamed), old, old);

    expect(await removeLeftOverTempFiles(root)).toEqual([files.oldUnnamed, files.gone].sort());
    expect((await readdir(path.join(root, 'a', 'b'))).length).toBe(0);
    expect(await readdir(path.join(root, 'a'))).toEqual(
      expect.arrayContaining([path.basename(files.live), 'notes.taskweave-tmp']),
    );
    expect(await readdir(root)).toContain(files.newUnnamed);
    expect(await readdir(path.join(root, '.git'))).toHaveLength(1);
  });
});
