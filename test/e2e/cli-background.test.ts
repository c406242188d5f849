import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const TOKEN = `302.${process.pid}${Date.now() % 100_000}`;

function sleepersRunning(): number {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.trim() === `sleep ${TOKEN}`).length;
}

describe('background commands through taskweave run', () => {
  it('tells the model when one ends, and stops the rest when the session ends', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-bg-run-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-bg-run-script-'), {
      turns: [
        // Only a prompt that carries taskweave's note matches this turn.
        {
          when: 'The background command bg1 (`echo compiling; exit 2`) has ended: exited with code 2',
          text: 'The build failed with code 2; the watcher still runs.',
        },
        {
          when: 'build it',
          toolCalls: [{ name: 'run_command', args: { command: 'echo compiling; exit 2', background: true } }],
        },
        { toolCalls: [{ name: 'run_command', args: { command: `sleep ${TOKEN}`, background: true } }] },
        { toolCalls: [{ name: 'run_command', args: { command: 'sleep 1' } }] },
      ],
    });
    const result = await runCli([
      'run',
      ...['--approval', 'auto', '--model', `script:${script}`, '--cwd', workspace, '--json'],
      'build it',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const events = parseJsonLines(result.stdout);
    expect(events.find((event) => event.type === 'response_complete')).toMatchObject({
      type: 'response_complete',
      final_answer: 'The build failed with code 2; the watcher still runs.',
    });
    const ended = events.filter((event) => event.type === 'background_ended');
    expect(ended).toEqual([
      expect.objectContaining({ command_id: 'bg1', state: 'exited', exit_code: 2, lines: ['compiling'] }),
      expect.objectContaining({ command_id: 'bg2', state: 'stopped', stopped_by: 'the end of the session' }),
    ]);
    expect(sleepersRunning()).toBe(0);
  }, 60_000);
});
