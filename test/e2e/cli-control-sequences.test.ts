import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const ESC = '\u001b';
const BEL = '\u0007';
/** An OSC 52 clipboard write: the terminal would put `rm -rf ~` on the clipboard. */
const CLIPBOARD = `${ESC}]52;c;cm0gLXJmIH4=${BEL}`;
const ERASE_LINE = `${ESC}[2K${ESC}[1A`;
const CONCEAL = `${ESC}[8m`;

describe('control sequences from the model and from tools never reach the terminal raw', () => {
  it('run, sessions show --events --full and tasks list print none of them', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-escapes-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        {
          text: `Reading${CLIPBOARD} the file${ERASE_LINE}.`,
          toolCalls: [
            {
              name: 'write_file',
              args: { path: `notes${ESC}[2K.txt`, content: `hidden ${CONCEAL}secret\n` },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: 'run_command',
              args: { command: `printf 'ok\\033]52;c;cm0gLXJmIH4=\\007\\033[8mconcealed\\rover\\n'; exit 1` },
            },
          ],
        },
        { text: `Done${CLIPBOARD}${CONCEAL} with it.` },
      ],
    });
    const run = await runCli([
      'run',
      '--approval',
      'auto',
      '--model',
      `script:${script}`,
      '--cwd',
      workspace,
      `goal ${ERASE_LINE}with escapes`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('concealed');
    expect(run.stdout).toContain('Done with it.');
    const shown = await runCli(['sessions', 'show', 'last', '--events', '--full', '--cwd', workspace]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('notes.txt');
    const tasks = await runCli(['tasks', 'list', '--all', '--cwd', workspace]);
    expect(tasks.stdout).toContain('goal with escapes');
    const sessions = await runCli(['sessions', 'list', '--cwd', workspace]);
    for (const output of [run.stdout, run.stderr, shown.stdout, tasks.stdout, sessions.stdout]) {
      expect(output).not.toContain(ESC);
      expect(output).not.toContain(BEL);
      expect(output).not.toContain('\r');
    }
  });
});
