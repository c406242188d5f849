import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-input-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

/** What a terminal sends for a paste once bracketed paste is on. */
const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

async function runCount(workspace: string): Promise<number> {
  const sessions = JSON.parse((await runCli(['sessions', 'list', '--json', '--cwd', workspace])).stdout);
  return sessions.reduce((sum: number, session: { run_count: number }) => sum + session.run_count, 0);
}

describe('typing and pasting messages in the interactive session on an 80×24 terminal', () => {
  it('keeps a pasted block of lines as one message, shown as a label, sent whole with what was typed around it', async () => {
    const { workspace, model } = await setup([
      {
        when: 'Explain this log:\nerror TS2322: line one\n  at src/index.ts:3 (@types/node)\nfailed: 1 error briefly',
        text: 'One type error in src/index.ts.',
      },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('› ');
    // The terminal was asked to mark pastes.
    expect(session.bytes()).toContain('\u001b[?2004h');
    session.type('Explain this log:\\\r');
    // A pasted `@word` is text, not a file to add (only what is typed names files).
    session.type(paste('error TS2322: line one\r  at src/index.ts:3 (@types/node)\rfailed: 1 error\r'));
    await session.waitFor('[Pasted text #1 +3 lines]');
    session.type(' briefly\r');
    await session.waitFor('One type error in src/index.ts.');
    await session.waitFor('✓ completed');
    await session.waitFor('auto › ', { count: 2 });
    // The message shows as it was typed: the label, not the pasted lines.
    expect(session.text()).toContain('auto › Explain this log:\n       [Pasted text #1 +3 lines] briefly\n');
    expect(session.text()).not.toContain('failed: 1 error');
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(await runCount(workspace)).toBe(1);
  });

  it('keeps a paste made while a goal runs for the next prompt, as one message that waits for Enter', async () => {
    const { workspace, model } = await setup([
      { when: 'first pasted\nsecond pasted', text: 'Got both lines.' },
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 1' } }] },
      { text: 'Slept.' },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('› ');
    session.type('sleep a second\r');
    await session.waitFor('run_command("sleep 1")');
    session.type(paste('first pasted\rsecond pasted'));
    await session.waitFor('Slept.');
    await session.waitFor('auto › [Pasted text #1 +2 lines]');
    // Not sent by itself: one run so far.
    expect(await runCount(workspace)).toBe(1);
    session.type('\r');
    await session.waitFor('Got both lines.');
    await session.waitFor('auto › ', { count: 3 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(await runCount(workspace)).toBe(2);
  });

  it('starts a new line with \\ then Enter and with Shift+Enter; Enter sends the lines as one goal', async () => {
    const { workspace, model } = await setup([
      { when: 'first line\nsecond line\nthird line', text: 'Three lines read.' },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('› ');
    session.type('first line\\\r');
    await session.waitFor('auto › first line\n       ');
    // Shift+Enter as a terminal reporting modified keys (CSI u) sends it.
    session.type('second line\u001b[13;2u');
    session.type('third line');
    await session.waitFor('       third line');
    session.type('\r');
    await session.waitFor('Three lines read.');
    await session.waitFor('auto › ', { count: 2 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(await runCount(workspace)).toBe(1);
  });

  it('Tab completes /commands and @paths (and lists the choices) instead of inserting spaces', async () => {
    const { workspace, model } = await setup([
      { when: '<file path="notes.ts">', text: 'The notes set answer to 42.' },
    ]);
    await writeFile(path.join(workspace, 'notes.ts'), 'const answer = 42;\n');
    await writeFile(path.join(workspace, 'notebook.md'), '# notebook\n');
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('› ');
    session.type('/he\t');
    await session.waitFor('auto › /help ');
    session.type('\r');
    await session.waitFor('Keys: Esc stops the run');
    session.type('what does @no\t');
    // Two files start with "no": Tab goes as far as they agree, a second Tab lists them.
    await session.waitFor('what does @note');
    session.type('\t');
    await session.waitFor('@notebook.md  @notes.ts');
    session.type('s\t');
    await session.waitFor('what does @notes.ts ');
    session.type('say?\r');
    await session.waitFor('The notes set answer to 42.');
    await session.waitFor('auto › ', { count: 4 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(session.text()).toContain('auto › what does @notes.ts say?\n');
    expect(session.text()).not.toMatch(/\/he {2,}/);
  });
});

describe('taskweave "<goal>"', () => {
  it('on a terminal opens the interactive session with the goal as its first message', async () => {
    const { workspace, model } = await setup([
      { when: 'fix the build', text: 'The build is fixed.' },
      { when: 'and now?', text: 'Nothing else to do.' },
    ]);
    const session = PtyRun.start(['--approval', 'auto', '--model', model, '-C', workspace, 'fix the build'], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('auto › fix the build');
    await session.waitFor('The build is fixed.');
    await session.waitFor('auto › ', { count: 2 });
    session.type('and now?\r');
    await session.waitFor('Nothing else to do.');
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expect(session.text()).not.toContain('too many arguments');
    // Both goals ran in one session.
    const sessions = JSON.parse((await runCli(['sessions', 'list', '--json', '--cwd', workspace])).stdout);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].run_count).toBe(2);
  });

  it('without a terminal runs the goal as taskweave run does, and says so', async () => {
    const { workspace, model } = await setup([{ when: 'fix the build', text: 'The build is fixed.' }]);
    const result = await runCli(['--model', model, '-C', workspace, 'fix', 'the build']);
    expect(result.stderr).not.toContain('too many arguments');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('The build is fixed.');
    expect(result.stderr).toContain(
      'No terminal for an interactive session: running the goal as taskweave run',
    );
  });
});
