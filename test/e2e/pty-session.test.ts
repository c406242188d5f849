import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-session-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

describe('the interactive session on an 80×24 terminal', () => {
  it('runs one goal after another in the same session, with @path, slash commands and history', async () => {
    const { workspace, model } = await setup([
      { when: 'const answer = 42', text: 'The file sets answer to 42.' },
      { when: 'Earlier you said', text: 'Yes: 42, as I said.' },
    ]);
    await writeFile(path.join(workspace, 'notes.ts'), 'const answer = 42;\n');
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('what does @missing.ts say?\r');
    await session.waitFor('@missing.ts: there is no such file');
    // The line comes back to be fixed: clear it (Ctrl-U) and type the right one.
    session.type('\u0015what does @notes.ts say?\r');
    await session.waitFor('The file sets answer to 42.');
    await session.waitFor('✓ completed');
    session.type('Earlier you said what?\r');
    await session.waitFor('Yes: 42, as I said.');
    session.type('/cost\r');
    await session.waitFor('This session: 2 runs,');
    session.type('/plan never\r');
    await session.waitFor('plan: never (from the next goal on)');
    session.type('/bogus\r');
    await session.waitFor('Unknown command /bogus.');
    // The up arrow goes back through what was typed: /bogus, /plan never, /cost, the goal.
    session.type('\u001b[A'.repeat(4));
    await session.waitFor('› Earlier you said what?', { count: 2 });
    session.type('\u0015/quit\r');
    expect(await session.exited).toBe(0);
    const sessions = JSON.parse((await runCli(['sessions', 'list', '--json', '--cwd', workspace])).stdout);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].run_count).toBe(2);
  });

  it('Esc stops a run and the prompt comes back; Ctrl-C twice quits; -c continues the last session', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 20' } }] },
      { when: 'second goal', text: 'Second goal done.' },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('wait a while\r');
    await session.waitFor('run_command("sleep 20")');
    session.type('\u001b');
    await session.waitFor('■ stopped');
    await session.waitFor('›', { count: 2 });
    session.type('second goal\r');
    await session.waitFor('Second goal done.');
    await session.waitFor('›', { count: 3 });
    session.type('\u0003');
    await session.waitFor('press Ctrl-C again to quit');
    session.type('\u0003');
    expect(await session.exited).toBe(0);
    expect(session.text()).not.toContain('20.0s');

    const again = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace, '--continue'], {
      env: { NO_COLOR: '1' },
    });
    await again.waitFor('Continuing session');
    again.type('/quit\r');
    expect(await again.exited).toBe(0);
  });

  it('keeps what is typed during a run, unechoed, for the prompts after it, line by line', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 1' } }] },
      { when: 'sleep 1', text: 'Slept.' },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('sleep a second\r');
    await session.waitFor('run_command("sleep 1")');
    // Typed while the command runs: a typo fixed with Backspace, then a second line.
    session.type('/costx\u007f\r/tasks\r');
    await session.waitFor('This session: 1 run,');
    await session.waitFor('› /tasks');
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    // Nothing typed ahead was echoed over the run's output.
    expect(session.text()).not.toContain('/costx');
  });
});
