import { readFileSync } from 'node:fs';
import pty from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../helpers/cli.js';

/** Everything `taskweave <args>` writes on a pseudo-terminal `columns` wide. */
function onTerminal(args: string[], columns: number): Promise<string> {
  return new Promise((resolve) => {
    const child = pty.spawn(process.execPath, [CLI_PATH, ...args], {
      cols: columns,
      rows: 24,
      env: { ...process.env, TERM: 'xterm-256color' },
    });
    let output = '';
    child.onData((data) => {
      output += data;
    });
    child.onExit(() => resolve(output));
  });
}

describe('--help and --version answered without the CLI', () => {
  it('--help and -h print what commander prints for `taskweave help`, piped and on terminals of other widths', async () => {
    const piped = await runCli(['--help']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Usage: taskweave [options] [command]');
    expect(piped.stdout).toBe((await runCli(['help'])).stdout);
    expect((await runCli(['-h'])).stdout).toBe(piped.stdout);
    for (const columns of [50, 132]) {
      const quick = await onTerminal(['--help'], columns);
      expect(quick).toBe(await onTerminal(['help'], columns));
      expect(quick).not.toBe(piped.stdout.replaceAll('\n', '\r\n'));
    }
  });

  it('--version and -V print the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});
