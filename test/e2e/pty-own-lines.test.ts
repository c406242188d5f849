import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/** No row the terminal folded mid-word: every row of the text is a row of the screen. */
function expectNoFoldedRow(run: PtyRun): void {
  const text = run.text();
  expect(
    text.split('\n').filter((row) => row !== ''),
    text,
  ).toEqual(run.lines().filter((row) => row !== ''));
}

describe("taskweave's own lines on an 80×24 terminal wrap between words", () => {
  it('/help and the unknown-command message: a command’s description continues under itself', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-own-lines-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [{ text: 'unused' }],
    });
    const session = PtyRun.start(['--model', `script:${script}`, '-C', workspace], {
      env: { NO_COLOR: '1' },
    });
    await session.waitFor('›');
    session.type('/help\r');
    await session.waitFor('/quit');
    session.type('/bogus\r');
    await session.waitFor('Unknown command /bogus.');
    await session.waitFor('/quit', { count: 2 });
    session.type('/quit\r');
    expect(await session.exited).toBe(0);
    expectNoFoldedRow(session);
    const lines = session.lines();
    const approval = lines.findIndex((line) =>
      line.startsWith('  /approval [ask|edits|auto|plan-only]  show'),
    );
    expect(lines[approval + 1]).toMatch(/^ {40}\S/);
  });

  it('the queue notice of a request queued behind another process', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-own-lines-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { when: 'first goal', toolCalls: [{ name: 'run_command', args: { command: 'sleep 3' } }] },
        { when: 'first goal', text: 'First done.' },
        { when: 'second goal', text: 'Second done.' },
      ],
    });
    const args = [
      '--approval',
      'auto',
      '--sandbox',
      'off',
      '--model',
      `script:${script}`,
      '--cwd',
      workspace,
    ];
    const first = PtyRun.start(['run', ...args, 'first goal'], { env: { NO_COLOR: '1' } });
    await first.waitFor('run_command("sleep 3")');
    const second = PtyRun.start(['run', '--no-wait', ...args, 'second goal'], { env: { NO_COLOR: '1' } });
    expect(await second.exited, second.text()).toBe(5);
    expect(second.text()).toMatch(/Your request was queued\sas\s#\d/);
    expectNoFoldedRow(second);
    expect(await first.exited, first.text()).toBe(0);
  });

  it('the error when no model is configured', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-own-lines-');
    const home = await mkdtemp(path.join(tmpdir(), 'taskweave-xdg-'));
    const run = PtyRun.start(['run', '--cwd', workspace, 'hello'], {
      env: {
        NO_COLOR: '1',
        XDG_CONFIG_HOME: home,
        TASKWEAVE_MODEL: '',
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        GOOGLE_GENERATIVE_AI_API_KEY: '',
        GEMINI_API_KEY: '',
      },
    });
    expect(await run.exited).toBe(2);
    expect(run.text()).toContain('No model is configured.');
    expectNoFoldedRow(run);
    const lines = run.lines();
    // A numbered way continues under its text, a provider's description under itself.
    const fourth = lines.findIndex((line) => line.startsWith('  4. an API key in the environment'));
    expect(lines[fourth + 1]).toMatch(/^ {5}\S/);
    const anthropic = lines.findIndex((line) => line.startsWith('  anthropic:claude-sonnet-4-5 '));
    expect(lines[anthropic + 1]).toMatch(/^ {34}\S/);
  });
});
