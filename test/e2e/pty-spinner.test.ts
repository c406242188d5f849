import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { PtyRun } from '../helpers/pty.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

describe('on an 80×24 terminal, a running command', () => {
  it('keeps one spinner line while it prints several lines or a line wider than the terminal', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-pty-');
    const wide = `echo ${'w'.repeat(150)}`;
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        { toolCalls: [{ name: 'run_command', args: { command: 'echo first; echo second; sleep 1.5' } }] },
        { toolCalls: [{ name: 'run_command', args: { command: `${wide}; sleep 1.5` } }] },
        { text: 'Both commands ran.' },
      ],
    });
    const run = await PtyRun.run(
      ['run', '--approval', 'auto', '--model', `script:${script}`, '--cwd', workspace, 'run two commands'],
      {
        env: { NO_COLOR: '1' },
      },
    );
    expect(run.code, run.text).toBe(0);
    // What stays: the header, two tool lines, the answer and the completion line (no spinner copies).
    expect(run.lines.filter((line) => line.includes('run_command('))).toHaveLength(2);
    expect(run.lines.length, run.text).toBeLessThanOrEqual(8);
    expect(run.text).not.toContain('⠋');
    expect(run.screen.join('\n')).toMatch(/Both commands ran\.\n✓ completed/);
  });
});
