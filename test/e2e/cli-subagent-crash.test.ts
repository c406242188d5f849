import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from '../helpers/cli.js';
import { runCliUntil } from '../helpers/kill-cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const INTERRUPTED =
  'subagent working on "Write notes.txt" was interrupted and is not continued; it may have changed notes.txt';

describe('kill -9 while a subagent works, then taskweave resume', { timeout: 90_000 }, () => {
  it('the child is not re-run: the continuing run is told it was interrupted and which files it changed', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-subagent-crash-');
    const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), {
      turns: [
        // The continuing run (the same script replayed by the second process) is told; it answers.
        { when: INTERRUPTED, text: 'The writer was interrupted after notes.txt; it is there, so I am done.' },
        {
          toolCalls: [{ name: 'delegate', id: 'call-w', args: { agent: 'general', job: 'Write notes.txt' } }],
        },
        {
          agent: 'general',
          toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: 'one\n' } }],
        },
        { agent: 'general', latencyMs: 20_000, text: 'never reached' },
      ],
    });
    const model = `script:${script}`;
    const args = ['--approval', 'auto', '--model', model, '--cwd', workspace, '--json'];
    const first = await runCliUntil(['run', ...args, 'write the notes'], {
      when: (stdout) =>
        stdout
          .split('\n')
          .some(
            (line) =>
              line.includes('"type":"tool_complete"') &&
              line.includes('"name":"write_file"') &&
              line.includes('"agent":"general"'),
          ),
    });
    expect(first.signal).toBe('SIGKILL');
    const resumed = await runCli(['resume', ...args]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = parseJsonLines(resumed.stdout);
    // The child did not run again: no delegate call, no subagent started.
    expect(events.some((event) => event.type === 'tool_start' && event.name === 'delegate')).toBe(false);
    expect(events.find((event) => event.type === 'response_complete')).toMatchObject({
      status: 'completed',
      final_answer: 'The writer was interrupted after notes.txt; it is there, so I am done.',
    });
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toBe('one\n');
  });
});
