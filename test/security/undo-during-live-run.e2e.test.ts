import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const REFUSED =
  /A run of this workspace is going on \(session ses_\w+, "second goal"\): files are never restored under a live run, with --force or not\./;

/** Starts the built CLI and resolves once its output matches `ready`; the process goes on. */
function startCli(args: string[], ready: (stdout: string) => boolean) {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (ready(stdout)) resolve();
    });
    ended.then(() => reject(new Error(`the run ended before it was ready:\n${stdout}`)));
  });
  return { child, started, ended, output: () => stdout };
}

describe('no restore under a live run, forced or not (issue 39, item 12)', () => {
  it('undo --force (and undo, redo --force, rewind --force, of this session or another of the workspace) is refused while a CLI run of the workspace goes on; once it is killed, --force goes ahead', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-undo-live-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-undo-live-script-'), {
      turns: [
        {
          when: 'first goal',
          toolCalls: [{ name: 'write_file', args: { path: 'first.txt', content: 'one\n' } }],
        },
        { when: 'first goal', text: 'Wrote it.' },
        { when: 'second goal', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
        {
          when: 'second goal',
          toolCalls: [{ name: 'run_command', args: { command: 'echo $$ > sleeper.pid; exec sleep 300' } }],
        },
        { when: 'second goal', text: 'Done.' },
      ],
    });
    const common = [
      '--approval',
      'auto',
      '--sandbox',
      'off',
      '--model',
      `script:${script}`,
      '--cwd',
      workspace,
    ];
    const first = await runCli(['run', ...common, 'first goal']);
    expect(first.code, first.stderr).toBe(0);

    // The second run writes a.txt, then runs a command that takes its time: the run is live.
    const live = startCli(
      ['run', ...common, '--json', 'second goal'],
      (out) => out.includes('"type":"tool_start"') && out.includes('"name":"run_command"'),
    );
    await live.started;
    const restores = [
      ['undo', 'last', '--force'],
      ['undo', 'last'],
      ['rewind', 'last', '--to', '1', '--force'],
      ['redo', 'last', '--force'],
      // Another session of the workspace: its files are the same checkout.
      [
        'undo',
        (
          await runCli(['sessions', 'list', '--json', '--cwd', workspace]).then((r) => JSON.parse(r.stdout))
        )[1].id,
        '--force',
      ],
    ];
    for (const args of restores) {
      const result = await runCli([...args, '--cwd', workspace]);
      // The run was live all along (its command sleeps until the test ends it).
      expect(live.child.exitCode).toBeNull();
      expect([args.join(' '), result.code === 0]).toEqual([args.join(' '), false]);
      expect(result.stderr, args.join(' ')).toMatch(REFUSED);
    }
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(workspace, 'first.txt'), 'utf8')).toBe('one\n');

    // Killed, the run's session still says running: a plain undo asks for --force, which goes ahead.
    live.child.kill('SIGKILL');
    await live.ended;
    process.kill(Number(await readFile(path.join(workspace, 'sleeper.pid'), 'utf8')), 'SIGKILL');
    const plain = await runCli(['undo', 'last', '--cwd', workspace]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain('is running: stop it first');
    const forced = await runCli(['undo', 'last', '--force', '--cwd', workspace]);
    expect(forced.code, forced.stderr).toBe(0);
    await expect(readFile(path.join(workspace, 'a.txt'), 'utf8')).rejects.toThrow();
  }, 90_000);
});
