import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { killDuringAtomicWrite } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe('temporary files of atomic writes left by a kill -9 (issue 11, finding 2)', () => {
  it('resume removes those of killed writers and leaves a live writer’s alone', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-crash-tmp-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, { turns: [{ text: 'unused' }] })}`;
    const folder = path.join(workspace, 'src', 'deep');
    await mkdir(folder, { recursive: true });
    const left = await killDuringAtomicWrite(folder, 'big.txt');
    // A write this (live) process is in the middle of.
    const live = `.other.txt.${process.pid}-0123456789ab.taskweave-tmp`;
    await writeFile(path.join(workspace, live), 'half');

    const resumed = await runCli(['resume', '--approval', 'auto', '--model', model, '--cwd', workspace]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain(
      `removed 1 temporary file(s) a killed process left: src/deep/${left}`,
    );
    // The target was never written: the old content (none) is what a reader sees.
    expect(await readdir(folder)).toEqual([]);
    expect((await readdir(workspace)).filter((file) => file.endsWith('.taskweave-tmp'))).toEqual([live]);
  }, 60_000);
});
