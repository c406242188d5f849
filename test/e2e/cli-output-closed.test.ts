import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const folder = await tempWorkspaceRoot('taskweave-output-closed-');
  folders.push(folder);
  return folder;
}

/**
 * Runs the CLI with its stdout on a pipe whose reader goes away (like `| head`) once what it
 * printed so far passes `closeWhen`; resolves with the exit code, stderr and what was read.
 */
function readUntil(
  args: string[],
  closeWhen: (stdout: string) => boolean,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (closeWhen(stdout)) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('stdout closed by its reader', () => {
  it("exits with the run's own status when the reader goes away after the run ended (needs input: 4)", async () => {
    const workspace = await tempFolder();
    const script = await writeScript(await tempFolder(), {
      turns: [{ toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] }],
    });
    // The reader leaves at the run's last line: the lines on how to continue, printed after the
    // run ended, meet a closed pipe.
    const piped = await readUntil(
      ['run', 'paint the fence', '-C', workspace, '--model', `script:${script}`, '--plan', 'never'],
      (stdout) => stdout.includes('■ needs input'),
    );
    // Nothing but the lines on how to continue, which go to stderr when the closed pipe was
    // noticed before they were written: no error, no stack trace.
    expect(
      piped.stderr.replace(/^(To answer and continue:|On a terminal, taskweave resume) .*\n/gm, ''),
    ).toBe('');
    expect(piped.code).toBe(4);
    const sessions = await runCli(['sessions', 'list', '--json', '-C', workspace]);
    expect(JSON.parse(sessions.stdout)[0].last_run_status).toBe('needs_input');
  });

  it('stops a queue worker whose reader went away, saying so on stderr, with exit code 3', async () => {
    const workspace = await tempFolder();
    for (const goal of ['count', 'count again']) {
      const added = await runCli(['tasks', 'add', goal, '-C', workspace]);
      expect(added.code).toBe(0);
    }
    const count = { toolCalls: [{ name: 'run_command', args: { command: 'seq 1 5' } }] };
    const script = await writeScript(await tempFolder(), {
      turns: [count, count, { text: 'Done.' }, { text: 'Done.' }],
    });
    const worker = await readUntil(
      ['work', '-C', workspace, '--model', `script:${script}`, '--approval', 'auto'],
      () => true,
    );
    expect(worker.code).toBe(3);
    expect(worker.stderr).toContain('stopped because the output was closed');
    expect(worker.stderr).not.toContain('Ctrl-C');
    const tasks = await runCli(['tasks', 'list', '--all', '--json', '-C', workspace]);
    expect(JSON.parse(tasks.stdout).map((task: { status: string }) => task.status)).toEqual([
      'pending',
      'pending',
    ]);
  });
});
