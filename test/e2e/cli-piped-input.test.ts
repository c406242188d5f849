import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/**
 * `printf … | taskweave <args>`: the CLI with text on a pipe as its stdin, written at once, or
 * once stderr shows `writeAfter`.
 */
function runWithStdin(
  args: string[],
  input: string,
  writeAfter?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (writeAfter !== undefined && stderr.includes(writeAfter) && child.stdin.writable)
        child.stdin.end(input);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (writeAfter === undefined) child.stdin.end(input);
  });
}

describe('piped input', () => {
  it('cat log | taskweave run "explain this" gives the model the piped text as context', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-stdin-');
    // The turn matches only a prompt holding both the goal and the piped log.
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { when: "src/a.ts(3,9): error TS2322: Type 'string'", text: 'Line 3 assigns a string to a number.' },
      ],
    });
    const log = "> tsc\nsrc/a.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.\n";
    const run = await runWithStdin(
      ['run', '--model', `script:${script}`, '--cwd', workspace, 'explain this'],
      log,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Line 3 assigns a string to a number.');
    const shown = await runCli(['sessions', 'show', 'last', '--json', '--cwd', workspace]);
    const goal: string = JSON.parse(shown.stdout).goal;
    expect(goal.startsWith('explain this\n')).toBe(true);
    expect(goal).toContain(log.trim());
  });

  it('without piped text (stdin /dev/null) the goal is the goal alone', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-stdin-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'Hi.' }],
    });
    const run = await runCli(['run', '--model', `script:${script}`, '--cwd', workspace, 'say hi']);
    expect(run.code, run.stderr).toBe(0);
    const shown = await runCli(['sessions', 'show', 'last', '--json', '--cwd', workspace]);
    expect(JSON.parse(shown.stdout).goal).toBe('say hi');
  });

  it('says what it waits for when the pipe stays open, and goes on once it ends', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-stdin-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ when: 'late text', text: 'Got it.' }],
    });
    const run = await runWithStdin(
      ['run', '--model', `script:${script}`, '--cwd', workspace, 'read this'],
      'late text\n',
      'waits for its end',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('run it with </dev/null when nothing is piped');
    expect(run.stdout).toContain('Got it.');
  });

  it('piped text with a NUL character is refused with a clear error; nothing is stored', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-stdin-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'Read it.' }],
    });
    const run = await runWithStdin(
      ['run', '--model', `script:${script}`, '--cwd', workspace, 'explain this'],
      'binary\u0000data\n',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('The goal contains a NUL character');
    expect(run.stdout).not.toContain('Read it.');
    const listed = await runCli(['sessions', 'list', '--json', '--cwd', workspace]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
