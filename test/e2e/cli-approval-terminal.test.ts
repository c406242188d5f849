import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';
import { runInTerminal } from '../helpers/terminal.js';

const command = (line: string) => ({ name: 'run_command', args: { command: line } });
const write = (file: string, content: string) => ({ name: 'write_file', args: { path: file, content } });

describe('approvals on a terminal (--approval ask, the default)', () => {
  it('asks each command and file change: yes runs it, no passes the reason to the model, always stops asking', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-tty-approval-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        { toolCalls: [command('touch one.txt')] },
        { toolCalls: [command('rm one.txt')] },
        { when: 'keep that file', toolCalls: [write('two.txt', 'two\n')] },
        { toolCalls: [write('three.txt', 'three\n')] },
        { toolCalls: [command('touch four.txt')] },
        { toolCalls: [command('touch five.txt')] },
        { text: 'Done, and one.txt is kept.' },
      ],
    })}`;
    const run = await runInTerminal(
      ['run', '--model', model, '--cwd', workspace, 'make some files'],
      [
        { after: 'Allow?', type: 'y' },
        { after: 'Allow?', type: 'n' },
        { after: 'Why not?', type: 'keep that file' },
        { after: 'Allow?', type: 'a' },
        { after: 'Allow?', type: 'a' },
      ],
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('approval ask · sandbox workspace-write (no network)');
    expect(run.output).toContain('? run_command needs your approval:\n    touch one.txt');
    expect(run.output).toContain('[a] Always allow `touch …` (this session)');
    expect(run.output).toMatch(/run_command\("rm one\.txt"\) ✗ denied: keep that file/);
    expect(run.output).toContain('? write_file needs your approval:\n    --- /dev/null\n    +++ b/two.txt');
    expect(run.output).toContain('[a] Always allow file changes (this session)');
    // Asked four times: three.txt (after "always" for file changes) and five.txt (after "always" for touch) were not.
    expect(run.output.match(/Allow\? /g)).toHaveLength(4);
    expect(existsSync(path.join(workspace, 'one.txt'))).toBe(true);
    for (const file of ['two.txt', 'three.txt', 'four.txt', 'five.txt'])
      expect(existsSync(path.join(workspace, file)), file).toBe(true);
    expect(await readFile(path.join(workspace, 'three.txt'), 'utf8')).toBe('three\n');
  });
});
