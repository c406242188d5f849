import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function script(turns: unknown[]) {
  return `script:${await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns })}`;
}

/** A command that runs until the test lets it go on (a fixed sleep loses its race on a loaded machine). */
const UNTIL_GO = 'while [ ! -f go ]; do sleep 0.1; done';

/** A CLI process in the background (no terminal); `ready` resolves once its stdout matches. */
function startCli(args: string[], readyPattern: RegExp) {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (readyPattern.test(stdout + stderr)) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (readyPattern.test(stdout + stderr)) markReady();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { ready, done, child, output: () => stdout };
}

describe('a second terminal’s run in the same workspace', () => {
  it('waits for its turn, streams its own request as the other process runs it, and ends with its exit code', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-wait-');
    const model = await script([
      {
        when: 'write the first file',
        toolCalls: [{ name: 'run_command', args: { command: `${UNTIL_GO}; echo one > one.txt` } }],
      },
      { when: 'Exit code: 0', text: 'First done.' },
      {
        when: 'write the second file',
        toolCalls: [{ name: 'write_file', args: { path: 'two.txt', content: 'two' } }],
      },
      { when: 'Created two.txt', text: 'Second done.' },
    ]);
    const first = startCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'write the first file'],
      /"tool_start"/,
    );
    await first.ready;
    // The same settings as the first: the request runs there, with the settings it was queued with.
    const second = startCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'write the second file'],
      /waiting for its turn/,
    );
    await second.ready;
    await writeFile(path.join(workspace, 'go'), '');
    const [secondDone, firstDone] = await Promise.all([second.done, first.done]);
    expect(secondDone.code, secondDone.stdout + secondDone.stderr).toBe(0);
    expect(secondDone.stderr).toMatch(/Your request is #2 in the queue .*waiting for its turn/);
    // Only its own request's events, in order, ending with its own answer.
    const events = parseJsonLines(secondDone.stdout);
    expect(new Set(events.map((event) => event.session_id)).size).toBe(1);
    expect(events[0]).toMatchObject({ update_type: 'agent_start', goal: 'write the second file' });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', final_answer: 'Second done.' });
    expect(firstDone.code).toBe(0);
    // After the takeover the worker says how many queued tasks are left.
    expect(firstDone.stderr).toContain(
      '▶ next in the queue (added while the last task ran): write the second file (nothing else queued)',
    );
    expect(await readFile(path.join(workspace, 'two.txt'), 'utf8')).toBe('two');
  });

  it('runs its request itself when the process that held the queue dies, with its own model', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-wait-');
    const first = startCli(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        await script([{ toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] }]),
        '--cwd',
        workspace,
        '--json',
        'a long job',
      ],
      /"tool_start"/,
    );
    await first.ready;
    const own = await script([
      { toolCalls: [{ name: 'write_file', args: { path: 'mine.txt', content: 'mine' } }] },
      { text: 'Mine done.' },
    ]);
    const second = startCli(
      ['run', '--approval', 'auto', '--model', own, '--cwd', workspace, 'write mine'],
      /waiting for its turn/,
    );
    await second.ready;
    first.child.kill('SIGKILL');
    const done = await second.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain('▶ the queue is free: your request runs here');
    expect(done.stdout).toContain('Mine done.');
    expect(await readFile(path.join(workspace, 'mine.txt'), 'utf8')).toBe('mine');
  });

  it('Ctrl-C while it waits cancels the queued request (exit 3); it never runs', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-wait-');
    const first = startCli(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        await script([
          { toolCalls: [{ name: 'run_command', args: { command: UNTIL_GO } }] },
          { text: 'Long job done.' },
        ]),
        '--cwd',
        workspace,
        '--json',
        'a long job',
      ],
      /"tool_start"/,
    );
    await first.ready;
    const second = startCli(
      [
        'run',
        '--approval',
        'auto',
        '--model',
        await script([{ error: { status: 400, message: 'the cancelled request must not run' } }]),
        '--cwd',
        workspace,
        'never mind',
      ],
      /waiting for its turn/,
    );
    await second.ready;
    second.child.kill('SIGINT');
    expect((await second.done).code).toBe(3);
    await writeFile(path.join(workspace, 'go'), '');
    expect((await first.done).code).toBe(0);
    const all = JSON.parse((await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout);
    expect(all.map((task: { title: string; status: string }) => [task.title, task.status])).toEqual([
      ['a long job', 'completed'],
      ['never mind', 'cancelled'],
    ]);
  });
});
