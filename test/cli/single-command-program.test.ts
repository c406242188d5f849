import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/main.js';

/** What the program prints (out and err) and how it ends for `args`, without running an action. */
async function outcome(
  program: Command,
  args: string[],
): Promise<{ out: string; err: string; code: string }> {
  let out = '';
  let err = '';
  const capture = (command: Command) => {
    command.configureOutput({
      writeOut: (text) => (out += text),
      writeErr: (text) => (err += text),
      getOutHelpWidth: () => 80,
      getErrHelpWidth: () => 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
    for (const sub of command.commands) capture(sub);
  };
  capture(program);
  try {
    await program.parseAsync(['node', 'taskweave', ...args]);
    return { out, err, code: 'ran' };
  } catch (error) {
    return { out, err, code: (error as { code?: string }).code ?? String(error) };
  }
}

describe('a program built for one agent command', () => {
  it('has that command only, and other words get every command', () => {
    expect(createProgram(() => {}, 'run').commands.map((command) => command.name())).toEqual(['run']);
    expect(createProgram(() => {}, 'serve').commands.map((command) => command.name())).toEqual(['serve']);
    for (const word of [undefined, 'chat', 'tasks', 'completion', 'rnu', 'constructor', 'toString']) {
      expect(createProgram(() => {}, word).commands.length, String(word)).toBeGreaterThan(10);
    }
  });

  it('answers help and bad usage exactly as the whole program does', async () => {
    for (const args of [
      ['run', '--help'],
      ['run'],
      ['run', '--bogus', 'x'],
      ['run', '--approval', 'sometimes', 'x'],
      ['resume', '--help'],
      ['work', '--help'],
      ['work', '--watch', '--bogus'],
      ['serve', '--help'],
      ['serve', '--port', 'x'],
    ]) {
      const single = await outcome(
        createProgram(() => {}, args[0]),
        args,
      );
      const whole = await outcome(
        createProgram(() => {}),
        args,
      );
      expect(single, args.join(' ')).toEqual(whole);
      expect(single.code, args.join(' ')).not.toBe('ran');
    }
  });
});
