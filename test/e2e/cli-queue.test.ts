import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { eventKinds, tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-queue-');
  const scripts = await tempWorkspaceRoot('taskweave-script-');
  return { workspace, scripts, model: `script:${await writeScript(scripts, { turns })}` };
}

/** Starts the CLI in the background, resolving `ready` once a stdout line matches. */
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
    if (readyPattern.test(stdout)) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { ready, done, child };
}

describe('the task queue', () => {
  it('taskweave work drains the queue in order, showing task i of n', async () => {
    const { workspace, model } = await setup(
      ['alpha', 'beta', 'gamma'].flatMap((name) => [
        {
          when: `write ${name}.txt`,
          toolCalls: [{ name: 'write_file', args: { path: `${name}.txt`, content: name } }],
        },
        { when: `Created ${name}.txt`, text: `Wrote ${name}.txt.` },
      ]),
    );
    for (const name of ['alpha', 'beta', 'gamma']) {
      expect((await runCli(['tasks', 'add', '--cwd', workspace, `write ${name}.txt`])).code).toBe(0);
    }
    const work = await runCli(['work', '--approval', 'auto', '--model', model, '--cwd', workspace]);
    expect(work.code, work.stderr).toBe(0);
    expect(work.stdout).toMatch(
      /▶ task 1 of 3: write alpha\.txt[\s\S]*▶ task 2 of 3: write beta\.txt[\s\S]*▶ task 3 of 3: write gamma\.txt/,
    );
    expect(work.stdout).toContain('queue: 3 completed, 0 failed');
    for (const name of ['alpha', 'beta', 'gamma'])
      expect(await readFile(path.join(workspace, `${name}.txt`), 'utf8')).toBe(name);
    const listed = JSON.parse(
      (await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout,
    );
    expect(
      listed.map((task: { status: string; result_summary: string }) => [task.status, task.result_summary]),
    ).toEqual([
      ['completed', 'Wrote alpha.txt.'],
      ['completed', 'Wrote beta.txt.'],
      ['completed', 'Wrote gamma.txt.'],
    ]);

    const empty = await runCli(['work', '--approval', 'auto', '--model', model, '--cwd', workspace]);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('The queue is empty');
  });

  it('with --no-wait, queues a request made while a task runs, tells where (exit 5), and runs it after the current task', async () => {
    const { workspace, model } = await setup([
      {
        when: 'write the first file',
        // Runs until the test lets it go on: a fixed sleep loses its race on a loaded machine.
        toolCalls: [
          {
            name: 'run_command',
            args: { command: 'while [ ! -f go ]; do sleep 0.1; done; echo one > one.txt' },
          },
        ],
      },
      { when: 'Exit code: 0', text: 'First done.' },
      {
        when: 'write the second file',
        toolCalls: [{ name: 'write_file', args: { path: 'two.txt', content: 'two' } }],
      },
      { text: 'Second done.' },
    ]);
    const first = startCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'write the first file'],
      /"tool_start"/,
    );
    await first.ready;
    const second = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      model,
      '--cwd',
      workspace,
      '--no-wait',
      'write the second file',
    ]);
    expect(second.code, second.stdout + second.stderr).toBe(5);
    expect(second.stdout).toMatch(/queued as #2 .*Follow it with: taskweave sessions show ses_\w+ --events/);
    await writeFile(path.join(workspace, 'go'), '');

    const finished = await first.done;
    expect(finished.code, finished.stderr).toBe(0);
    const events = parseJsonLines(finished.stdout);
    const starts = events.filter(
      (event) => event.type === 'agent_update' && event.update_type === 'agent_start',
    );
    expect(starts.map((event) => 'goal' in event && event.goal)).toEqual([
      'write the first file',
      'write the second file',
    ]);
    const firstDone = events.find((event) => event.type === 'response_complete')!;
    expect(starts[1]!.ts).toBeGreaterThanOrEqual(firstDone.ts);
    expect(await readFile(path.join(workspace, 'one.txt'), 'utf8')).toBe('one\n');
    expect(await readFile(path.join(workspace, 'two.txt'), 'utf8')).toBe('two');
  });

  it('run --interrupt stops the running task and runs the new goal', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
    ]);
    const started = Date.now();
    const first = startCli(
      ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json', 'a long job'],
      /"tool_start"/,
    );
    await first.ready;
    const { model: urgentModel } = await setup([
      { toolCalls: [{ name: 'write_file', args: { path: 'urgent.txt', content: 'now' } }] },
      { text: 'Urgent work done.' },
    ]);
    const urgent = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      urgentModel,
      '--cwd',
      workspace,
      '--interrupt',
      'urgent fix',
    ]);
    expect(urgent.code, urgent.stderr).toBe(0);
    expect(urgent.stdout).toContain('Stopping the running task "a long job"');
    expect(await readFile(path.join(workspace, 'urgent.txt'), 'utf8')).toBe('now');

    const stopped = await first.done;
    expect(stopped.code).toBe(3);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(eventKinds(parseJsonLines(stopped.stdout))).toContain('agent_stopped');
  });

  it('work --watch starts a task as soon as it is added to the idle queue', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'write_file', args: { path: 'late.txt', content: 'picked up' } }] },
      { text: 'Done.' },
    ]);
    const worker = startCli(
      ['work', '--approval', 'auto', '--model', model, '--cwd', workspace, '--watch'],
      /waiting for tasks/,
    );
    await worker.ready;
    const added = Date.now();
    expect((await runCli(['tasks', 'add', '--cwd', workspace, 'write late.txt'])).code).toBe(0);
    for (let tries = 0; tries < 100; tries += 1) {
      const list = JSON.parse(
        (await runCli(['tasks', 'list', '--all', '--json', '--cwd', workspace])).stdout,
      );
      if (list[0]?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await readFile(path.join(workspace, 'late.txt'), 'utf8')).toBe('picked up');
    expect(Date.now() - added).toBeLessThan(15_000);
    worker.child.kill('SIGINT');
    const ended = await worker.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain('queue: 1 completed, 0 failed');
  });

  it('Ctrl-C stops work cleanly: the current task goes back to the queue (exit 3)', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30' } }] },
    ]);
    expect((await runCli(['tasks', 'add', '--cwd', workspace, 'a slow task'])).code).toBe(0);
    const child = spawn(
      process.execPath,
      [CLI_PATH, 'work', '--approval', 'auto', '--model', model, '--cwd', workspace, '--json'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // One Ctrl-C: a second one would exit at once.
      if (!interrupted && out.includes('"tool_start"')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(3);
    const list = JSON.parse((await runCli(['tasks', 'list', '--json', '--cwd', workspace])).stdout);
    expect(list.map((task: { title: string; status: string }) => [task.title, task.status])).toEqual([
      ['a slow task', 'pending'],
    ]);
  });
});
