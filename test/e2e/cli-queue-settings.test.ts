import { spawn } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, parseJsonLines, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** A command that runs until the test lets it go on (a fixed sleep loses its race on a loaded machine). */
const UNTIL_GO = 'while [ ! -f go ]; do sleep 0.1; done';

/** A CLI process in the background (no terminal); `ready` resolves once its output matches. */
function startCli(args: string[], readyPattern: RegExp) {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', TASKWEAVE_MODEL: '' },
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const look = () => {
    if (readyPattern.test(stdout + stderr)) markReady();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    look();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    look();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { ready, done, child };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Terminal A runs a goal with `--approval auto` and a writable sandbox and holds the queue;
 * terminal B queues a goal with stricter settings. A runs B's goal after its own (the queue
 * hands it over): with B's settings, never with A's.
 */
async function secondTerminal(bArgs: string[], bTurns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-queue-settings-');
  const scripts = await tempWorkspaceRoot('taskweave-queue-settings-script-');
  const model = `script:${await writeScript(scripts, {
    turns: [
      { when: 'hold the queue', toolCalls: [{ name: 'run_command', args: { command: UNTIL_GO } }] },
      { when: 'Exit code: 0', text: 'Held.' },
      ...bTurns,
    ],
  })}`;
  const a = startCli(
    [
      'run',
      '--approval',
      'auto',
      '--sandbox',
      'workspace-write',
      '--model',
      model,
      '-C',
      workspace,
      '--json',
      'hold the queue',
    ],
    /"tool_start"/,
  );
  await a.ready;
  const b = startCli(['run', '--model', model, '-C', workspace, '--json', ...bArgs], /waiting for its turn/);
  await b.ready;
  await writeFile(path.join(workspace, 'go'), '');
  const [aDone, bDone] = await Promise.all([a.done, b.done]);
  return { workspace, aDone, bDone };
}

describe('a goal queued from a second terminal runs with the settings it was made with', {
  timeout: 90_000,
}, () => {
  it("B's --approval plan-only --sandbox read-only --max-steps 7 request does not run under A's auto and writable sandbox", async () => {
    const { workspace, aDone, bDone } = await secondTerminal(
      ['--approval', 'plan-only', '--sandbox', 'read-only', '--max-steps', '7', 'change b.txt'],
      [
        { when: 'change b.txt', toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b' } }] },
        { text: 'B answered.' },
      ],
    );
    expect(aDone.code, aDone.stderr).toBe(0);
    expect(aDone.stderr).toContain('runs with the settings it was queued with');
    const events = parseJsonLines(bDone.stdout);
    expect(events[0]).toMatchObject({
      update_type: 'agent_start',
      goal: 'change b.txt',
      approval: 'plan-only',
      sandbox: 'read-only',
      max_steps: 7,
    });
    expect(await exists(path.join(workspace, 'b.txt'))).toBe(false);
  });

  it("B's --sandbox read-only command cannot write, although A's sandbox is writable", async () => {
    const { workspace, aDone, bDone } = await secondTerminal(
      ['--approval', 'auto', '--sandbox', 'read-only', 'touch b.txt'],
      [
        { when: 'touch b.txt', toolCalls: [{ name: 'run_command', args: { command: 'echo b > b.txt' } }] },
        { text: 'B tried.' },
      ],
    );
    expect(aDone.code, aDone.stderr).toBe(0);
    const events = parseJsonLines(bDone.stdout);
    expect(events[0]).toMatchObject({
      update_type: 'agent_start',
      goal: 'touch b.txt',
      sandbox: 'read-only',
    });
    expect(await exists(path.join(workspace, 'b.txt'))).toBe(false);
  });
});
