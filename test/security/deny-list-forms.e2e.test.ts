import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * Issue 39 items 9 and 20 through the built CLI (`npm run build` first), with real files and no
 * sandbox, so that only the deny list stands between the model and the file: `find -delete` and
 * `unlink` are refused by a `rm` entry, and a shell fed `rm` through a pipe is asked even under
 * `--approval auto` — without a terminal the run ends waiting (exit 4), the file still there.
 */

const command = (line: string) => ({ name: 'run_command', args: { command: line } });

describe('deny ["rm"] against the forms that passed it (--approval auto, --sandbox off)', {
  timeout: 120_000,
}, () => {
  it('find -delete and unlink are refused; `echo … | bash` is asked and, with no terminal, ends the run; keep.txt stays', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-deny-forms-');
    await writeFile(path.join(workspace, 'keep.txt'), 'keep\n');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        { toolCalls: [command('find . -name keep.txt -delete'), command('unlink keep.txt')] },
        { when: 'deny list', toolCalls: [command("echo 'rm keep.txt' | bash")] },
      ],
    })}`;
    const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
    await mkdir(path.join(home, 'taskweave'));
    await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify({ deny: ['rm'] }));
    const args = [
      'run',
      '--approval',
      'auto',
      '--sandbox',
      'off',
      '--json',
      '--model',
      model,
      '-C',
      workspace,
    ];
    const run = await runCli([...args, 'clean up'], { env: { XDG_CONFIG_HOME: home } });
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(4);
    const events = parseJsonLines(run.stdout);
    const errors = events.filter((event) => event.type === 'tool_error');
    expect(errors.map((event) => ('error' in event ? event.error : ''))).toEqual([
      expect.stringContaining('`rm` is on the deny list'),
      expect.stringContaining('`rm` is on the deny list'),
      expect.stringContaining("needs the user's approval"),
    ]);
    expect(
      events.find((event) => event.type === 'agent_update' && event.update_type === 'agent_completion'),
    ).toMatchObject({ status: 'needs_input', reason: expect.stringContaining('it may run `rm`') });
    expect(existsSync(path.join(workspace, 'keep.txt'))).toBe(true);
  });
});
