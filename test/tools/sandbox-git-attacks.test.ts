import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const sandbox: CommandSandbox = {
  kind: 'bwrap',
  bwrap: found.bwrap,
  mode: 'workspace-write',
  network: false,
};

/** git as the user runs it, with no config of their own: only the repository's counts. */
const USER_GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'User',
  GIT_AUTHOR_EMAIL: 'user@example.com',
  GIT_COMMITTER_NAME: 'User',
  GIT_COMMITTER_EMAIL: 'user@example.com',
};

describe("planted git config and hooks do not run on the user's next git (issue 23, item 1)", () => {
  const bed = useToolTestBed();

  /** Where the planted program leaves its mark: outside the workspace, where no sandboxed command can write. */
  const marker = () => path.join(bed().outside, 'PWNED');
  const fsmonitor = () => `[core]\\n\\tfsmonitor = \\"touch ${marker()}; false\\"\\n`;

  function userGit(...args: string[]): string {
    return execFileSync('git', args, { cwd: bed().root, encoding: 'utf8', env: USER_GIT_ENV });
  }

  async function userRepository(): Promise<void> {
    userGit('init', '-q', '.');
    await bed().write('README.md', '# project\n');
    userGit('add', 'README.md');
    userGit('commit', '-qm', 'first');
  }

  async function run(command: string) {
    return runCommandTool.run({ command, continue_on_error: true }, { ...bed().ctx, sandbox });
  }

  /** The user's next git commands, as they would run them: nothing planted may run. */
  function expectUserGitClean(): void {
    userGit('status', '--short');
    userGit('commit', '-q', '--allow-empty', '-m', 'after');
    expect(existsSync(marker()), "a planted program ran on the user's git").toBe(false);
  }

  it('1. write_file .git/config with core.fsmonitor is refused', async () => {
    await userRepository();
    const result = await writeFileTool.run(
      {
        path: '.git/config',
        content: fsmonitor().replaceAll('\\n', '\n').replaceAll('\\t', '\t').replaceAll('\\"', '"'),
      },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expectUserGitClean();
  });

  it('2. write_file over an existing executable hook is refused', async () => {
    await userRepository();
    const hook = await bed().write('.git/hooks/pre-commit', '#!/bin/sh\nexit 0\n');
    await chmod(hook, 0o755);
    const result = await writeFileTool.run(
      { path: '.git/hooks/pre-commit', content: `#!/bin/sh\ntouch ${marker()}\n` },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expectUserGitClean();
  });

  it('3. mv .git .git-old and rebuilding .git fails: .git cannot be renamed or replaced', async () => {
    await userRepository();
    const result = await run(
      `mv .git .git-old; mkdir -p .git-new && cp -r .git/. .git-new/ && printf "${fsmonitor()}" >> .git-new/config; mv .git-new .git; printf "${fsmonitor()}" >> .git/config`,
    );
    expect(result.output).toMatch(/Device or resource busy|Read-only file system/);
    expect(await readFile(path.join(bed().root, '.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(userGit('log', '--format=%s')).toBe('first\n');
    expectUserGitClean();
  });

  it('4. .git/commondir (or config.worktree) pointing git at a planted copy is undone, and the model told', async () => {
    await userRepository();
    const result = await run(
      `cp -r .git gitcopy && printf "${fsmonitor()}" >> gitcopy/config && echo ../gitcopy > .git/commondir && printf "${fsmonitor()}" > .git/config.worktree`,
    );
    expect(existsSync(path.join(bed().root, '.git/commondir'))).toBe(false);
    expect(existsSync(path.join(bed().root, '.git/config.worktree'))).toBe(false);
    expect(result.output).toMatch(/Git: taskweave undid changes/);
    expect(result.output).toMatch(/\.git\/commondir: new: points git at \.\.\/gitcopy \(removed\)/);
    expect(result.display).toContain('git config undone');
    expectUserGitClean();
  });

  it('5. a nested repository with its own config, added as a gitlink, loses the planted entry', async () => {
    await userRepository();
    const result = await run(
      `git init -q sub && echo x > sub/f && git -C sub add f && git -C sub -c user.name=a -c user.email=b commit -qm x && git -C sub config core.fsmonitor "touch ${marker()}; false" && git add sub && git init -q lib && printf '#!/bin/sh\\ntouch ${marker()}\\n' > lib/.git/hooks/pre-commit && chmod +x lib/.git/hooks/pre-commit`,
    );
    expect(result.output).toMatch(
      /sub\/\.git\/config: new: core\.fsmonitor=touch .*PWNED; false \(cleaned\)/,
    );
    expect(result.output).toMatch(/lib\/\.git\/hooks\/pre-commit: new hook \(removed\)/);
    const cleaned = await readFile(path.join(bed().root, 'sub/.git/config'), 'utf8');
    expect(cleaned).not.toContain('fsmonitor');
    expect(cleaned).toContain('repositoryformatversion');
    expect(userGit('status', '--short')).toContain('A  sub');
    expectUserGitClean();
    execFileSync('git', ['-C', 'sub', 'status'], { cwd: bed().root, env: USER_GIT_ENV });
    execFileSync('git', ['-C', 'lib', 'commit', '-q', '--allow-empty', '-m', 'x'], {
      cwd: bed().root,
      env: USER_GIT_ENV,
    });
    expect(existsSync(marker())).toBe(false);
  });

  it('6. git init in a workspace without .git, then fsmonitor appended to .git/config, is cleaned', async () => {
    const result = await run(`git init -q . && printf "${fsmonitor()}" >> .git/config`);
    expect(result.output).toMatch(/\.git\/config: new: core\.fsmonitor=/);
    const config = await readFile(path.join(bed().root, '.git/config'), 'utf8');
    expect(config).not.toContain('fsmonitor');
    await bed().write('a.txt', 'a\n');
    userGit('add', 'a.txt');
    expectUserGitClean();
  });

  it('a .git file pointing at a git folder under another name is removed: write_file could plant its config later', async () => {
    await userRepository();
    const result = await run(
      'mkdir sub && git init -q --separate-git-dir gitdata sub && git -C sub -c user.name=a -c user.email=b commit -q --allow-empty -m x',
    );
    expect(result.output).toMatch(/sub\/\.git: new: points git at .*gitdata \(removed\)/);
    expect(existsSync(path.join(bed().root, 'sub/.git'))).toBe(false);
    const planted = await writeFileTool.run(
      { path: 'gitdata/config', content: `[core]\n\tfsmonitor = "touch ${marker()}; false"\n` },
      bed().ctx,
    );
    expect(planted.isError, planted.output).toBe(false);
    expectUserGitClean();
    execFileSync('git', ['status'], {
      cwd: path.join(bed().root, 'sub'),
      env: USER_GIT_ENV,
      stdio: 'ignore',
    });
    expect(existsSync(marker())).toBe(false);
  });

  it('leaves what git does on its own: commits, branches, a new repository, a safe config entry', async () => {
    await userRepository();
    const result = await run(
      'git -c user.name=a -c user.email=b commit -q --allow-empty -m inside && git branch feature && git init -q lib && git -C lib config user.email dev@example.com && git -C lib config remote.origin.url https://example.com/lib.git',
    );
    expect(result.isError, result.output).toBe(false);
    expect(result.output).not.toContain('Git: taskweave undid');
    expect(userGit('log', '--format=%s')).toBe('inside\nfirst\n');
    expect(await readFile(path.join(bed().root, 'lib/.git/config'), 'utf8')).toContain('dev@example.com');
  });
});
