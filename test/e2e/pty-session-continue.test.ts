import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[], latencyMs = 0) {
  const workspace = await tempWorkspaceRoot('taskweave-continue-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { latencyMs, turns });
  return { workspace, model: `script:${script}` };
}

/** Waits until another process has its task running in the workspace. */
async function untilRunning(workspace: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const listed = await runCli(['tasks', 'list', '--json', '--cwd', workspace]);
    if (listed.stdout.includes('in_progress')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('coming back to the interactive session on an 80×24 terminal', () => {
  it('prints the run header once, says how to continue on quitting, and -c recaps the earlier goals', async () => {
    const { workspace, model } = await setup([
      { when: 'first goal', text: 'First goal done: wrote the parser.' },
      { when: 'second goal', text: 'Second goal done: added its tests.' },
      { when: 'third goal', text: 'Third goal done.' },
    ]);
    const args = ['--approval', 'auto', '--model', model, '-C', workspace];
    const session = PtyRun.start(args, { env: { NO_COLOR: '1' } });
    await session.waitFor('auto › ');
    session.type('first goal\r');
    await session.waitFor('First goal done');
    await session.waitFor('auto › ', { count: 2 });
    session.type('second goal\r');
    await session.waitFor('Second goal done');
    await session.waitFor('auto › ', { count: 3 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    const text = session.text();
    // The header of the run (model, step limit, safety) once, not once per goal.
    expect(text.match(/up to 50 steps/g)).toHaveLength(1);
    expect(text).toMatch(/To continue this session: taskweave -c -C \S+\s+--model script:\S+\n/);

    // A new process replays its script from the first turn: the next goal has a script of its own.
    const next = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ when: 'third goal', text: 'Third goal done.' }],
    });
    const again = PtyRun.start(['--approval', 'auto', '--model', `script:${next}`, '-C', workspace, '-c'], {
      env: { NO_COLOR: '1' },
    });
    await again.waitFor('auto › ');
    const recap = again.text();
    expect(recap).toContain('Continuing session');
    expect(recap).toContain('  › first goal\n    ✓ First goal done: wrote the parser.\n');
    expect(recap).toContain('  › second goal\n    ✓ Second goal done: added its tests.\n');
    again.type('third goal\r');
    await again.waitFor('Third goal done.');
    await again.waitFor('auto › ', { count: 2 });
    // Ctrl-C twice at the prompt quits, saying how to continue as well.
    again.type('\u0003');
    await again.waitFor('press Ctrl-C again to quit');
    again.type('\u0003');
    expect(await again.exited).toBe(0);
    expect(again.text()).toContain('To continue this session: taskweave -c');
  });

  it('Ctrl-C twice during a run quits at once and says how to continue', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 20' } }] },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('auto › ');
    session.type('wait a while\r');
    await session.waitFor('run_command("sleep 20")');
    session.type('\u0003');
    await session.waitFor('Ctrl-C (again to quit)');
    session.type('\u0003');
    await session.exited;
    expect(session.text()).toContain('To continue this session: taskweave -c');
  });

  it('Esc cancels a goal that waits behind another process: the prompt comes back, the goal never runs', async () => {
    const { workspace, model } = await setup([
      { when: 'slow goal', toolCalls: [{ name: 'run_command', args: { command: 'sleep 4' } }] },
      { when: 'slow goal', text: 'Slow goal done.' },
      {
        when: 'queued goal',
        toolCalls: [{ name: 'write_file', args: { path: 'queued.txt', content: 'q\n' } }],
      },
      { when: 'queued goal', text: 'Queued goal done.' },
    ]);
    const other = runCli(['run', '--approval', 'auto', '--model', model, '-C', workspace, 'slow goal']);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('auto › ');
    await untilRunning(workspace);
    session.type('queued goal\r');
    await session.waitFor('and its steps show here when it runs');
    session.type('\u001b');
    await session.waitFor('Esc: cancelling the queued goal');
    await session.waitFor('auto › ', { count: 2 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    const result = await other;
    expect(result.code).toBe(0);
    expect(existsSync(path.join(workspace, 'queued.txt'))).toBe(false);
    expect(session.text()).not.toContain('Queued goal done.');
  });

  it('a goal that waits behind another process shows its steps and result here, then the prompt', async () => {
    const { workspace, model } = await setup([
      { when: 'slow goal', toolCalls: [{ name: 'run_command', args: { command: 'sleep 3' } }] },
      { when: 'slow goal', text: 'Slow goal done.' },
      {
        when: 'queued goal',
        toolCalls: [{ name: 'write_file', args: { path: 'queued.txt', content: 'q\n' } }],
      },
      { when: 'queued goal', text: 'Queued goal done: wrote queued.txt.' },
    ]);
    // Another process works a goal in the same workspace.
    const other = runCli(['run', '--approval', 'auto', '--model', model, '-C', workspace, 'slow goal']);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('auto › ');
    await untilRunning(workspace);
    session.type('queued goal\r');
    await session.waitFor('and its steps show here when it runs');
    await session.waitFor('write_file("queued.txt")', { timeoutMs: 90_000 });
    await session.waitFor('Queued goal done: wrote queued.txt.');
    await session.waitFor('auto › ', { count: 2 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect((await other).code).toBe(0);
  });
});
