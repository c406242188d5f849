import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../src/events/registry.js';
import { BackgroundCommands } from '../../src/tools/background/background-commands.js';
import { readBackgroundOutputTool } from '../../src/tools/builtin/read-background-output.js';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import { stopBackgroundCommandTool } from '../../src/tools/builtin/stop-background-command.js';
import { markedProcesses } from '../../src/tools/process/process-tree.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import type { CommandRecorder } from '../../src/tools/types.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);

/** A server that prints a line, then one more a line every 100 ms, and starts a child of its own. */
const TICKER = `node -e "require('child_process').spawn('sleep', ['300'], {stdio: 'ignore'}); let n = 0; console.log('listening'); setInterval(() => console.log('tick ' + ++n), 100)"`;

async function waitFor<T>(read: () => T, ok: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('background commands (run_command background: true)', () => {
  const bed = useToolTestBed();
  const events: EventPayload[] = [];
  const rows = new Map<string, string>();
  const recorder: CommandRecorder = {
    started: ({ mark, backgroundId }) => rows.set(mark, backgroundId ?? ''),
    ended: (mark) => rows.delete(mark),
  };
  let background: BackgroundCommands;

  function ctx(max = 4) {
    background = new BackgroundCommands({ max, emit: (_runId, payload) => events.push(payload) });
    return {
      ...bed().ctx,
      sandbox: {
        kind: 'bwrap',
        bwrap: found.available ? found.bwrap : '',
        mode: 'workspace-write',
        network: false,
      } as const,
      background,
      commands: recorder,
      runId: 'run-1',
    };
  }

  afterEach(async () => {
    await background?.close();
    events.length = 0;
    rows.clear();
  });

  it('returns at once, reads new output twice, stops the whole process tree', async () => {
    const context = ctx();
    const began = Date.now();
    const started = await runCommandTool.run({ command: TICKER, background: true }, context);
    expect(started.isError, started.output).toBe(false);
    expect(started.output).toMatch(/Started in the background as bg1/);
    expect(Date.now() - began).toBeLessThan(2_000);
    // Recorded in the command log, as a background command.
    expect([...rows.values()]).toEqual(['bg1']);

    await waitFor(
      () => background.get('bg1')?.info().lastLines ?? [],
      (lines) => lines.some((line) => line.startsWith('tick')),
    );
    const read = async () => (await readBackgroundOutputTool.run({ id: 'bg1' }, context)).output;
    const newOutput = (text: string) => text.split('--- new output ---\n')[1] ?? '';
    const one = await read();
    expect(one).toMatch(/bg1 .*: running/);
    expect(one).toMatch(/listening/);
    expect(one).toMatch(/tick \d+/);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const two = await read();
    // Only what came since the first read.
    expect(newOutput(one)).toMatch(/^listening\n/);
    expect(newOutput(two)).not.toMatch(/listening/);
    expect(two).toMatch(/tick \d+/);
    const lastOfOne = Number([...newOutput(one).matchAll(/tick (\d+)/g)].at(-1)?.[1]);
    const firstOfTwo = Number(/tick (\d+)/.exec(newOutput(two))?.[1]);
    expect(firstOfTwo).toBe(lastOfOne + 1);

    const command = background.get('bg1');
    const mark = command?.process?.mark ?? '';
    expect(markedProcesses(mark).length).toBeGreaterThan(0);
    const stopped = await stopBackgroundCommandTool.run({ id: 'bg1' }, context);
    expect(stopped.isError).toBe(false);
    expect(stopped.output).toMatch(/bg1 .* stopped \(stopped by the model\)/);
    await waitFor(
      () => markedProcesses(mark),
      (pids) => pids.length === 0,
    );
    expect(rows.size).toBe(0);
    expect(events.map((event) => event.type)).toContain('background_ended');
    // The model stopped it itself: it is not told again.
    expect(background.takeEndNotices()).toEqual([]);
  });

  it('refuses a fifth command with the reason, and takes one again once a slot is free', async () => {
    const context = ctx();
    for (let i = 1; i <= 4; i += 1) {
      const result = await runCommandTool.run({ command: 'sleep 30', background: true }, context);
      expect(result.output).toMatch(new RegExp(`as bg${i}\\b`));
    }
    const fifth = await runCommandTool.run({ command: 'sleep 30', background: true }, context);
    expect(fifth.isError).toBe(true);
    expect(fifth.output).toMatch(
      /4 background commands are already running in this session \(bg1, bg2, bg3, bg4\)/,
    );
    expect(fifth.output).toMatch(/background\.max/);
    await stopBackgroundCommandTool.run({ id: 'bg2' }, context);
    const again = await runCommandTool.run({ command: 'sleep 30', background: true }, context);
    expect(again.output).toMatch(/as bg5\b/);
  });

  it('tells the model when a command ends by itself, with its exit code and last lines', async () => {
    const context = ctx();
    await runCommandTool.run(
      { command: 'echo building; echo failed >&2; exit 3', background: true },
      context,
    );
    const notices = await waitFor(
      () => background.takeEndNotices(),
      (taken) => taken.length > 0,
    );
    expect(notices[0]?.content).toMatch(/bg1 .* has ended: exited with code 3/);
    expect(notices[0]?.content).toMatch(/building\nfailed/);
    expect(notices[0]?.content).toContain(
      'read_background_output with id bg1 gives the output you have not read.',
    );
    // What the user is shown: the same news, without the instruction meant for the model.
    expect(notices[0]?.shown).toMatch(
      /bg1 .* has ended: exited with code 3\. Its last lines:\nbuilding\nfailed$/,
    );
    expect(notices[0]?.shown).not.toContain('read_background_output');
    expect(background.takeEndNotices()).toEqual([]);
    const ended = events.find((event) => event.type === 'background_ended');
    expect(ended).toMatchObject({ command_id: 'bg1', state: 'exited', exit_code: 3 });
  });

  it('stops its commands when the session ends, but a kept one', async () => {
    const context = ctx();
    await runCommandTool.run({ command: 'sleep 30', background: true }, context);
    await runCommandTool.run({ command: 'sleep 31', background: true }, context);
    const first = background.get('bg1');
    const kept = background.get('bg2');
    await waitFor(() => first?.process && kept?.process, Boolean);
    kept?.keep();
    await background.close();
    expect(first?.info()).toMatchObject({ state: 'stopped', stoppedBy: 'the end of the session' });
    await waitFor(
      () => markedProcesses(first?.process?.mark ?? ''),
      (pids) => pids.length === 0,
    );
    expect(kept?.running).toBe(true);
    expect(markedProcesses(kept?.process?.mark ?? '').length).toBeGreaterThan(0);
    // Left out of the command log: a later resume does not end it as an orphan.
    expect([...rows.values()]).toEqual([]);
    await kept?.stop('the test');
  });

  it('runs in the sandbox like a foreground command: no write outside the workspace', async () => {
    const context = ctx();
    await runCommandTool.run(
      { command: 'echo x > /var/tmp/taskweave-bg-escape-$$; echo rc=$?', background: true },
      context,
    );
    const command = background.get('bg1');
    await command?.finished;
    const { output } = command?.read() ?? { output: '' };
    expect(output).toMatch(/Read-only file system/);
  });

  it('undoes git config a background command planted, once it ends, and tells the model', async () => {
    const context = ctx();
    execFileSync('git', ['init', '-q', '.'], { cwd: bed().root });
    await runCommandTool.run(
      {
        command: 'sleep 0.3; cp -r .git gitcopy && echo ../gitcopy > .git/commondir',
        background: true,
      },
      context,
    );
    const notices = await waitFor(
      () => background.takeEndNotices(),
      (taken) => taken.length > 0,
    );
    const text = notices.map((notice) => notice.content).join('\n');
    expect(text, text).toMatch(/bg1: Git: taskweave undid changes the command made/);
    expect(existsSync(path.join(bed().root, '.git/commondir'))).toBe(false);
  });

  it('says so for an unknown id', async () => {
    const context = ctx();
    const result = await readBackgroundOutputTool.run({ id: 'bg9' }, context);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/There is no background command bg9 in this session\. None was started\./);
  });
});
