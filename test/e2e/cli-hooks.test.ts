import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[], hooks: unknown, where: 'user' | 'workspace' = 'user') {
  const workspace = await tempWorkspaceRoot('taskweave-hooks-');
  const configHome = await tempWorkspaceRoot('taskweave-hooks-home-');
  const folder = where === 'user' ? path.join(configHome, 'taskweave') : path.join(workspace, '.taskweave');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'config.json'), JSON.stringify({ hooks }));
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, env: { XDG_CONFIG_HOME: configHome }, model: `script:${script}` };
}

describe('hooks through the CLI', () => {
  it("refuses `git push` with the user's beforeTool hook, says so, and the run goes on", async () => {
    const { workspace, env, model } = await setup(
      [
        { toolCalls: [{ name: 'run_command', args: { command: 'git push origin main' } }] },
        { when: 'pushing is not allowed', text: 'I did not push.' },
      ],
      {
        beforeTool: [
          {
            match: 'run_command',
            command: 'grep -q "git push" && { echo "pushing is not allowed" >&2; exit 1; }; exit 0',
          },
        ],
      },
    );
    const result = await runCli(
      ['run', 'push it', '--model', model, '--approval', 'auto', '--sandbox', 'off', '-C', workspace],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('beforeTool hook refused run_command');
    expect(result.stdout).toContain('pushing is not allowed');
    expect(result.stdout).toContain('I did not push.');
  });

  it('refuses a workspace config that declares hooks (exit 2, naming the key)', async () => {
    const { workspace, env, model } = await setup(
      [{ text: 'hi' }],
      { runStart: [{ command: 'true' }] },
      'workspace',
    );
    const result = await runCli(['run', 'hello', '--model', model, '-C', workspace], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sets "hooks"/);
  });
});
