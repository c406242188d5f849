import { describe, expect, it } from 'vitest';
import { readCommandLine } from '../../../src/agent/approval/command-line.js';
import { plainCommand } from '../../../src/agent/approval/plain-command.js';
import { MAX_PARSED_CHARS } from '../../../src/agent/approval/shell-syntax.js';

describe('readCommandLine: a command line read with the bash grammar', () => {
  it('reads one plain command as its words, quotes removed', async () => {
    expect(plainCommand(await readCommandLine('npm test'))).toEqual(['npm', 'test']);
    expect(plainCommand(await readCommandLine(`git commit -m "fix the build" 'a b' c\\ d`))).toEqual([
      'git',
      'commit',
      '-m',
      'fix the build',
      'a b',
      'c d',
    ]);
  });

  it.each([
    'npm test; rm -rf ~',
    'npm test && rm -rf ~',
    'npm test || rm -rf ~',
    'npm test | sh',
    'npm test & rm -rf ~',
    'npm test &',
    'npm test > /etc/passwd',
    'npm test < input',
    'npm test 2>&1',
    '(npm test)',
    '{ npm test; }',
    'npm test $(rm -rf ~)',
    'npm test `rm -rf ~`',
    'npm test\nrm -rf ~',
    'npm test $HOME',
    'npm test "$HOME"',
    'npm test *.js',
    'npm test {a,b}',
    'npm test ~/x',
    "npm test $'\\x41'",
    'PATH=/tmp/evil npm test',
    'npm test # note',
    '',
  ])('%j is not one plain command the allow list could match', async (line) => {
    expect(plainCommand(await readCommandLine(line))).toBeUndefined();
  });

  it('sees through harmless wrappers for the allow list (nice, timeout, time…)', async () => {
    expect(plainCommand(await readCommandLine('nice -n 5 npm test'))).toEqual(['npm', 'test']);
    expect(plainCommand(await readCommandLine('timeout -s KILL 60 npm test'))).toEqual(['npm', 'test']);
    expect(plainCommand(await readCommandLine('time nohup npm test'))).toEqual(['npm', 'test']);
  });

  it('the idioms that crashed the word splitter are read, or said to be unreadable, never thrown', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template
    const idiom = await readCommandLine('OUT=${OUT_DIR:-$(pwd)/dist}');
    expect(idiom.shell.parsed).toBe(true);
    expect(idiom.runs).toEqual([['pwd']]);
    const broken = await readCommandLine('echo ${A');
    expect(broken.shell).toMatchObject({
      parsed: false,
      why: expect.stringMatching(/not valid shell syntax/),
    });
    const huge = await readCommandLine(`echo ${'a'.repeat(10 * 1024 * 1024)}`);
    expect(huge.shell).toMatchObject({ parsed: false, why: expect.stringMatching(/too long to check/) });
    const deep = await readCommandLine(`echo ${'$('.repeat(50_000)}x${')'.repeat(50_000)}`);
    expect(deep.shell.parsed === false || deep.runs.length > 0).toBe(true);
    expect((await readCommandLine(`echo ${'x'.repeat(MAX_PARSED_CHARS - 5)}`)).shell.parsed).toBe(true);
  });

  it('marks where the operators are, for the approval card', async () => {
    const line = 'npm test && curl -s x | sh; echo $(id)';
    const { shell } = await readCommandLine(line);
    expect(shell.operators.map(([start, end]) => line.slice(start, end))).toEqual(['&&', '|', ';', '$(']);
  });
});
