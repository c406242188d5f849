import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/events/registry.js';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * Command lines as the approval rules read them, through the real CLI and the script model:
 * idioms the old word splitter crashed on, the deny list against wrappers, shell keywords and
 * git's global options (with a real file and a real remote behind them), and code-running
 * options under an allow entry.
 */

const command = (line: string) => ({ name: 'run_command', args: { command: line } });

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-parser-');
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

function updates(events: ServerEvent[], kind: string) {
  return events.filter((event) => event.type === 'agent_update' && event.update_type === kind);
}

/** The status of the workspace's only session, as `sessions list` prints it. */
async function sessionStatus(workspace: string): Promise<string> {
  const listed = await runCli(['sessions', 'list', '-C', workspace]);
  return (
    listed.stdout
      .split('\n')[1]
      ?.trim()
      .split(/\s{2,}/)[2] ?? ''
  );
}

describe('command lines the old parser crashed on (run --json, script model)', { timeout: 120_000 }, () => {
  it('OUT="default from OUT_DIR or $(pwd)/dist" (the idiom that crashed) runs in auto mode; the session completes', async () => {
    const { workspace, model } = await setup([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template
      { toolCalls: [command('OUT=${OUT_DIR:-$(pwd)/dist}; echo "out=$OUT"')] },
      { when: 'out=', text: 'The output folder is dist.' },
    ]);
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
    const run = await runCli([...args, 'where does it build']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events.find((event) => event.type === 'tool_complete')).toMatchObject({
      result: expect.stringContaining(`out=${workspace}/dist`),
    });
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', status: 'completed' });
    expect(await sessionStatus(workspace)).toBe('completed');
  });

  it.each([
    ['an unterminated parameter expansion', 'echo ${A; touch made.txt', /not valid shell syntax/],
    ['a 10 MB line', `touch made.txt # ${'x'.repeat(10 * 1024 * 1024)}`, /too long to check/],
  ])(
    '%s under a deny list is a tool error in auto mode, even under an allow entry: nothing run, the run goes on and completes',
    async (_, line, why) => {
      const { workspace, model } = await setup([
        { toolCalls: [command(line)] },
        { when: 'cannot check this command line', text: 'I will write it again.' },
      ]);
      const env = await userConfig({ allow: ['echo', 'touch'], deny: ['rm'] });
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
      const run = await runCli([...args, 'go'], { env });
      expect(run.code, run.stderr.slice(0, 2000)).toBe(0);
      const events = parseJsonLines(run.stdout);
      expect(updates(events, 'approval_requested')).toHaveLength(0);
      expect(events.find((event) => event.type === 'tool_error')).toMatchObject({
        error: expect.stringMatching(why),
      });
      expect(existsSync(path.join(workspace, 'made.txt'))).toBe(false);
      expect(await sessionStatus(workspace)).toBe('completed');
    },
  );
});

describe('the deny list against everyday forms (real files, a real git remote)', { timeout: 120_000 }, () => {
  const forms = [
    // wrappers
    'env rm keep.txt',
    'command rm keep.txt',
    'exec rm keep.txt',
    'nice -n 5 rm keep.txt',
    'nohup rm keep.txt',
    'timeout 5 rm keep.txt',
    'stdbuf -oL rm keep.txt',
    'setsid rm keep.txt',
    'echo keep.txt | xargs rm',
    'time rm keep.txt',
    // shell keywords and compound commands
    '{ rm keep.txt; }',
    'if true; then rm keep.txt; fi',
    '! rm keep.txt',
    'for f in keep.txt; do rm "$f"; done',
    'while true; do rm keep.txt; break; done',
    'case x in x) rm keep.txt;; esac',
    '(rm keep.txt)',
    'echo $(rm keep.txt) `rm keep.txt`',
    'true && rm keep.txt || rm keep.txt; true | rm keep.txt',
    "bash -c 'rm keep.txt'",
  ];

  it('deny ["rm"] refuses each, in auto mode with no sandbox; the file is still there', async () => {
    const { workspace, model } = await setup([
      { toolCalls: forms.map(command) },
      { when: 'deny list', text: 'I left keep.txt alone.' },
    ]);
    await writeFile(path.join(workspace, 'keep.txt'), 'keep\n');
    const env = await userConfig({ deny: ['rm'] });
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
    const run = await runCli([...args, 'clean up'], { env });
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    const errors = parseJsonLines(run.stdout).filter((event) => event.type === 'tool_error');
    expect(errors.map((event) => ('error' in event ? event.error : ''))).toEqual(
      forms.map(() => expect.stringContaining('`rm` is on the deny list')),
    );
    expect(existsSync(path.join(workspace, 'keep.txt'))).toBe(true);
  });

  it('deny ["git push"] refuses git\'s global-option forms; an alias on the command line is asked; nothing reaches the remote', async () => {
    const root = await tempWorkspaceRoot('taskweave-git-');
    const remote = path.join(root, 'remote.git');
    const workspace = path.join(root, 'work');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    await mkdir(workspace);
    git(root, 'init', '-q', '--bare', remote);
    git(workspace, 'init', '-q', '-b', 'main');
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    git(workspace, 'add', '.');
    git(workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a');
    git(workspace, 'remote', 'add', 'origin', remote);
    const pushes = [
      'git -C . push origin main',
      'git --no-pager push origin main',
      'git -c push.default=current push origin main',
      'git --git-dir=.git push origin main',
    ];
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        { toolCalls: pushes.map(command) },
        { when: 'deny list', toolCalls: [command('git -c alias.p=push p origin main')] },
      ],
    })}`;
    const env = await userConfig({ deny: ['git push'] });
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
    const run = await runCli([...args, 'publish'], { env });
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(4);
    const events = parseJsonLines(run.stdout);
    const errors = events.filter((event) => event.type === 'tool_error');
    expect(errors.slice(0, pushes.length).map((event) => ('error' in event ? event.error : ''))).toEqual(
      pushes.map(() => expect.stringContaining('`git push` is on the deny list')),
    );
    expect(updates(events, 'agent_completion')[0]).toMatchObject({
      status: 'needs_input',
      reason: expect.stringContaining('it may run `git push`'),
    });
    expect(() => git(root, '--git-dir', remote, 'rev-parse', '--verify', '-q', 'main')).toThrow();
  });
});

describe('an allow entry does not cover options that run code of their own', { timeout: 120_000 }, () => {
  it('allow ["npm test", "make"]: the plain forms run; `npm test --node-options=--require=…` is asked and its code does not run', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [command('npm test'), command('make -s')] },
      {
        when: 'tests passed',
        toolCalls: [command('npm test --node-options=--require=./evil.cjs')],
      },
    ]);
    await writeFile(
      path.join(workspace, 'package.json'),
      '{ "scripts": { "test": "node -e \\"console.log(\'tests passed\')\\"" } }\n',
    );
    await writeFile(path.join(workspace, 'Makefile'), 'all:\n\t@echo built\n');
    await writeFile(path.join(workspace, 'evil.cjs'), "require('node:fs').writeFileSync('PWNED', 'x');\n");
    const env = await userConfig({ allow: ['npm test', 'make'] });
    const run = await runCli(
      ['run', '--approval', 'ask', '--sandbox', 'off', '--model', model, '-C', workspace, 'test'],
      {
        env,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stdout).toMatch(/→ run_command\("npm test"\) ✓ exit 0/);
    expect(run.stdout).toMatch(/→ run_command\("make -s"\) ✓ exit 0/);
    expect(run.stdout).toContain('The command `npm test --node-options=--require=./evil.cjs` needs approval');
    expect(existsSync(path.join(workspace, 'PWNED'))).toBe(false);
  });
});
