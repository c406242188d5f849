import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_LINE_CHARS,
  MAX_READ_CHARS,
  MAX_READ_LINES,
  readFileTool,
} from '../../src/tools/builtin/read-file.js';
import { useToolTestBed } from '../helpers/tool-context.js';

function lines(count: number, text = (number: number) => `line ${number}`): string {
  return Array.from({ length: count }, (_, index) => `${text(index + 1)}\n`).join('');
}

describe('read_file', () => {
  const bed = useToolTestBed();

  it('returns numbered lines, right-aligned, with a tab', async () => {
    await bed().write('src/a.txt', lines(12));
    const result = await readFileTool.run({ path: 'src/a.txt' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output.split('\n').slice(0, 2)).toEqual([' 1\tline 1', ' 2\tline 2']);
    expect(result.output.split('\n').at(-1)).toBe('12\tline 12');
    expect(result.display).toBe('12 lines');
  });

  it('returns a range of lines and says where it sits in the file', async () => {
    await bed().write('a.txt', lines(300));
    const result = await readFileTool.run({ path: 'a.txt', start_line: 10, end_line: 12 }, bed().ctx);
    expect(result.output).toBe('10\tline 10\n11\tline 11\n12\tline 12\n\n(Lines 10-12 of 300.)');
    expect(result.display).toBe('lines 10-12 of 300');
  });

  it('shows lines without carriage returns for a Windows file', async () => {
    await bed().write('w.txt', 'one\r\ntwo\r\n');
    const result = await readFileTool.run({ path: 'w.txt' }, bed().ctx);
    expect(result.output).toBe('1\tone\n2\ttwo');
  });

  it('caps long files by lines and says how to read the rest', async () => {
    await bed().write('big.txt', lines(MAX_READ_LINES + 500));
    const result = await readFileTool.run({ path: 'big.txt' }, bed().ctx);
    expect(result.output).toContain(`${MAX_READ_LINES}\tline ${MAX_READ_LINES}\n`);
    expect(result.output).not.toContain(`\tline ${MAX_READ_LINES + 1}\n`);
    expect(result.output).toContain(
      `Showing lines 1-${MAX_READ_LINES} of ${MAX_READ_LINES + 500}: the output limit was reached. Read on with start_line=${MAX_READ_LINES + 1}.`,
    );
    expect(result.display).toBe(`lines 1-${MAX_READ_LINES} of ${MAX_READ_LINES + 500}`);
  });

  it('caps wide files by characters, below the wrapper limit', async () => {
    await bed().write(
      'wide.txt',
      lines(100, (number) => `${number} ${'x'.repeat(1_000)}`),
    );
    const result = await readFileTool.run({ path: 'wide.txt' }, bed().ctx);
    const shown = Math.floor(MAX_READ_CHARS / 1_006);
    expect(result.output).toContain(`Showing lines 1-${shown} of 100`);
    expect(result.output).toContain(`start_line=${shown + 1}`);
    expect(result.output).not.toContain('elided');
  });

  it('shortens a very long line and says by how much', async () => {
    await bed().write('min.js', `${'a'.repeat(MAX_LINE_CHARS + 123)}\n`);
    const result = await readFileTool.run({ path: 'min.js' }, bed().ctx);
    expect(result.output).toContain('… [123 more characters on this line]');
  });

  it('records the whole file as read even for a range, so it can be edited', async () => {
    const absolute = await bed().write('a.txt', lines(50));
    await readFileTool.run({ path: 'a.txt', start_line: 40, end_line: 41 }, bed().ctx);
    expect(await bed().files.whyNotEditable(absolute, 'a.txt')).toBeNull();
  });

  it('says an empty file is empty', async () => {
    await bed().write('empty.txt', '');
    const result = await readFileTool.run({ path: 'empty.txt' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toBe('empty.txt is empty (0 lines).');
  });

  it('refuses a start_line past the end and a reversed range', async () => {
    await bed().write('a.txt', lines(5));
    const past = await readFileTool.run({ path: 'a.txt', start_line: 9 }, bed().ctx);
    expect(past.isError).toBe(true);
    expect(past.output).toBe('start_line 9 is past the end of a.txt, which has 5 lines.');
    const reversed = await readFileTool.run({ path: 'a.txt', start_line: 4, end_line: 2 }, bed().ctx);
    expect(reversed.isError).toBe(true);
    expect(reversed.output).toContain('end_line 2 is before start_line 4');
  });

  it('refuses a binary file', async () => {
    await bed().write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await readFileTool.run({ path: 'image.png' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('image.png is a binary file');
    expect(result.output).toContain('run_command');
  });

  it('refuses a folder and says how to look inside it', async () => {
    await mkdir(path.join(bed().root, 'src'));
    const result = await readFileTool.run({ path: 'src' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('src is a folder, not a file');
    expect(result.output).toContain('ls -la src');
  });

  it('says a missing file does not exist and suggests similar names in its folder', async () => {
    await bed().write('src/index.ts', '');
    await bed().write('src/index.test.ts', '');
    await bed().write('src/unrelated.md', '');
    const result = await readFileTool.run({ path: 'src/index.js' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toBe('src/index.js does not exist. Did you mean: src/index.ts, src/index.test.ts?');
  });

  it('says so when neither the file nor its folder exists', async () => {
    const result = await readFileTool.run({ path: 'nope/file.ts' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('nope/file.ts does not exist, and neither does its folder nope');
  });

  it('refuses paths outside the workspace: .., absolute, and a symlink pointing out', async () => {
    await bed().write('../outside/secret.txt', 'secret');
    await symlink(path.join(bed().outside, 'secret.txt'), path.join(bed().root, 'link.txt'));
    for (const requested of ['../outside/secret.txt', path.join(bed().outside, 'secret.txt'), 'link.txt']) {
      const result = await readFileTool.run({ path: requested }, bed().ctx);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/outside the workspace/);
      expect(result.output).not.toContain('\tsecret');
    }
  });

  it('reads through a symlink that stays inside the workspace', async () => {
    await bed().write('real.txt', 'inside\n');
    await symlink(path.join(bed().root, 'real.txt'), path.join(bed().root, 'alias.txt'));
    const result = await readFileTool.run({ path: 'alias.txt' }, bed().ctx);
    expect(result.output).toBe('1\tinside');
  });

  it('rejects invalid arguments with the wrapper message', async () => {
    const result = await readFileTool.run({ path: 'a.txt', start_line: 0 }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^The read_file tool was called with invalid arguments:\n- start_line: /);
    expect(result.output).toContain('Rewrite the input');
  });
});
