import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const git = promisify(execFile);

describe('config files and the .taskweave folder', () => {
  it('a project config with one key overrides that key only: the user config still names the model', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-merge-');
    const home = await tempWorkspaceRoot('taskweave-home-');
    const script = await writeScript(home, { turns: [{ text: 'Hello from the user model.' }] });
    await mkdir(path.join(home, 'xdg', 'taskweave'), { recursive: true });
    await writeFile(
      path.join(home, 'xdg', 'taskweave', 'config.json'),
      JSON.stringify({ model: `script:${script}` }),
    );
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await writeFile(path.join(workspace, '.taskweave', 'config.json'), JSON.stringify({ maxSteps: 3 }));
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg'), TASKWEAVE_MODEL: '' };
    const run = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`taskweave · script:${script} · up to 3 steps`);
    expect(run.stdout).toContain('Hello from the user model.');

    await writeFile(path.join(home, 'xdg', 'taskweave', 'config.json'), '{ "model": ');
    const broken = await runCli(['run', '--cwd', workspace, 'say hello'], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(path.join(home, 'xdg', 'taskweave', 'config.json'));
  });

  it('the database never shows in git status; a project config can still be committed', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-git-');
    await git('git', ['init', '-q'], { cwd: workspace });
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'Hi.' }],
    });
    const run = await runCli(['run', '--model', `script:${script}`, '--cwd', workspace, 'hi']);
    expect(run.code, run.stderr).toBe(0);
    const status = async () =>
      (await git('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspace })).stdout;
    expect(await status()).toBe('');
    await writeFile(path.join(workspace, '.taskweave', 'config.json'), '{ "maxSteps": 10 }\n');
    expect(await status()).toBe('?? .taskweave/config.json\n');
  });
});
