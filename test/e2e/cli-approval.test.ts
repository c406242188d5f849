import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-approval-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  return { workspace, model: `script:${await writeScript(scripts, { turns })}` };
}

/** A user config folder (XDG_CONFIG_HOME) holding the given config. */
async function userConfig(config: unknown): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
  await mkdir(path.join(home, 'taskweave'));
  await writeFile(path.join(home, 'taskweave', 'config.json'), JSON.stringify(config));
  return { XDG_CONFIG_HOME: home };
}

const command = (line: string) => ({ name: 'run_command', args: { command: line } });
const write = (file: string, content: string) => ({ name: 'write_file', args: { path: file, content } });

describe('approval modes without a terminal (script model)', () => {
  it('ask (the default): a file change ends the run with exit 4, naming --approval edits; nothing is written', async () => {
    const { workspace, model } = await setup([{ toolCalls: [write('a.txt', 'a\n'), command('echo later')] }]);
    const run = await runCli(['run', '--model', model, '--cwd', workspace, '--json', 'write a']);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    const events = parseJsonLines(run.stdout);
    expect(events[0]).toMatchObject({
      update_type: 'agent_start',
      approval: 'ask',
      sandbox: 'workspace-write',
    });
    const asked = events.find(
      (event) => event.type === 'agent_update' && event.update_type === 'approval_requested',
    );
    expect(asked).toMatchObject({ name: 'write_file', args: { path: 'a.txt' } });
    expect(asked && 'preview' in asked ? asked.preview : '').toContain(
      '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+a',
    );
    expect(events.at(-2)).toMatchObject({
      update_type: 'agent_completion',
      status: 'needs_input',
      reason: expect.stringMatching(/file change by write_file \(a\.txt\) needs approval .*--approval edits/),
    });
    expect(events.filter((event) => event.type === 'tool_error')).toEqual([
      expect.objectContaining({
        name: 'write_file',
        error: "Not run: this call needs the user's approval and no one can give it now.",
      }),
    ]);
    // The command after it in the same reply is not run (nor asked) either.
    expect(
      events.filter((event) => event.type === 'tool_start').map((event) => 'name' in event && event.name),
    ).toEqual(['write_file']);
    expect(existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  });

  it('edits: file changes run, a command ends the run with exit 4 naming --approval auto and the allow list', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [write('a.txt', 'a\n')] },
      { toolCalls: [command('rm a.txt')] },
    ]);
    const run = await runCli(['run', '--approval', 'edits', '--model', model, '--cwd', workspace, 'go']);
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stdout).toContain('taskweave · script:');
    expect(run.stdout).toContain('· approval edits · sandbox workspace-write (no network)');
    expect(run.stdout).toMatch(/→ write_file\("a\.txt"\) ✓ created/);
    expect(run.stdout).toContain('? run_command needs your approval:\n    rm a.txt');
    expect(run.stdout).toContain(
      'The command `rm a.txt` needs approval and no one can give it here (no terminal). Run with --approval auto (commands then run inside the sandbox) or add "rm a.txt" to "allow" in the taskweave config.',
    );
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('the allow list of the user config runs a plain command unasked, never a compound one', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [command('echo allowed')] },
      { toolCalls: [command('echo sneaky; touch sneaky.txt')] },
    ]);
    const env = await userConfig({ allow: ['echo'] });
    const run = await runCli(['run', '--model', model, '--cwd', workspace, 'go'], { env });
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stdout).toMatch(/→ run_command\("echo allowed"\) ✓ exit 0/);
    expect(run.stdout).toContain('The command `echo sneaky; touch sneaky.txt` needs approval');
    expect(existsSync(path.join(workspace, 'sneaky.txt'))).toBe(false);
  });

  it('the deny list refuses a command in any mode; the model is told and the run goes on', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [command('npm test && git push origin main')] },
      { when: 'deny list', text: 'I will not push.' },
    ]);
    const env = await userConfig({ deny: ['git push'] });
    const run = await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'push'], {
      env,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/→ run_command\("npm test && git push origin main"\) ✗ refused/);
    expect(run.stdout).toContain('I will not push.');
  });

  it('plan-only: the model is offered read-only tools only, and nothing changes', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }, write('a.txt', 'a')] },
      { text: 'I would write a.txt.' },
    ]);
    await writeFile(path.join(workspace, 'notes.txt'), 'notes\n');
    const run = await runCli([
      'run',
      '--approval',
      'plan-only',
      '--model',
      model,
      '--cwd',
      workspace,
      '--json',
      'plan',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events.find((event) => event.type === 'tool_complete')).toMatchObject({ name: 'read_file' });
    expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
      name: 'write_file',
      error: expect.stringMatching(
        /^There is no tool named "write_file"\. Available tools: read_file, search_code/,
      ),
    });
    expect(existsSync(path.join(workspace, 'a.txt'))).toBe(false);
  });

  it('a workspace config cannot loosen safety (exit 2, naming the keys)', async () => {
    const { workspace, model } = await setup([{ text: 'never' }]);
    await mkdir(path.join(workspace, '.taskweave'));
    await writeFile(
      path.join(workspace, '.taskweave', 'config.json'),
      JSON.stringify({ approval: 'auto', allow: ['rm'], deny: ['git push'] }),
    );
    const run = await runCli(['run', '--model', model, '--cwd', workspace, 'go']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('sets "allow", "approval": "auto", which would loosen');
  });
});

describe('the sandbox from the command line', () => {
  it('auto: a command that writes outside the workspace fails in the sandbox', async () => {
    const outside = await mkdtemp(path.join('/var/tmp', 'taskweave-outside-'));
    const target = path.join(outside, 'escaped.txt');
    const { workspace, model } = await setup([
      { toolCalls: [command(`echo x > ${target}`)] },
      { text: 'It could not write there.' },
    ]);
    const run = await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'escape']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/→ run_command\(.*\) ✗ exit 1/);
    expect(existsSync(target)).toBe(false);
  });

  it('without bubblewrap on the PATH: says so once, asks for commands (exit 4 names --sandbox off)', async () => {
    const bin = await mkdtemp(path.join(tmpdir(), 'taskweave-path-'));
    // A PATH with the tools the test needs (bash, node) and without bwrap.
    for (const program of ['bash', 'sh', 'node', 'echo']) {
      const real = ['/usr/bin', '/bin', path.dirname(process.execPath)]
        .map((folder) => path.join(folder, program))
        .find((file) => existsSync(file));
      if (real) await symlink(real, path.join(bin, program));
    }
    const { workspace, model } = await setup([
      { toolCalls: [write('a.txt', 'a')] },
      { toolCalls: [command('echo hi')] },
      { text: 'done' },
    ]);
    const args = ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'go'];
    const asked = await runCli(args, { env: { PATH: bin } });
    expect(asked.code, asked.stdout + asked.stderr).toBe(4);
    expect(asked.stdout).toContain('· approval auto · sandbox unavailable');
    expect(
      asked.stdout.match(/Commands cannot be sandboxed: bubblewrap \(bwrap\) is not installed/g),
    ).toHaveLength(1);
    expect(asked.stdout).toMatch(/→ write_file\("a\.txt"\) ✓/);
    expect(asked.stdout).toContain(
      'Run with --sandbox off (bubblewrap is not available, so commands are asked)',
    );

    const { workspace: second, model: again } = await setup([
      { toolCalls: [command('echo hi')] },
      { text: 'done' },
    ]);
    const off = await runCli(
      ['run', '--approval', 'auto', '--sandbox', 'off', '--model', again, '--cwd', second, 'go'],
      {
        env: { PATH: bin },
      },
    );
    expect(off.code, off.stdout + off.stderr).toBe(0);
    expect(off.stdout).not.toContain('cannot be sandboxed');
    expect(off.stdout).toMatch(/→ run_command\("echo hi"\) ✓ exit 0/);
  });
});
