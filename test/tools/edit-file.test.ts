import { readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/builtin/edit-file.js';
import { readFileTool } from '../../src/tools/builtin/read-file.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const SOURCE = [
  'import { a } from "./a.js";',
  '',
  'export function greet(name: string): string {',
  "  return 'hello ' + name;",
  '}',
  '',
  'export function shout(name: string): string {',
  '  return greet(name).toUpperCase();',
  '}',
  '',
].join('\n');

describe('edit_file', () => {
  const bed = useToolTestBed();

  async function writeAndRead(relative: string, content: string): Promise<string> {
    const absolute = await bed().write(relative, content);
    const read = await readFileTool.run({ path: relative }, bed().ctx);
    expect(read.isError).toBe(false);
    return absolute;
  }

  it('applies edits in order and shows the changed lines', async () => {
    await writeAndRead('src/greet.ts', SOURCE);
    const result = await editFileTool.run(
      {
        path: 'src/greet.ts',
        edits: [
          { find: "return 'hello ' + name;", replace: "return 'hi ' + name;" },
          { find: 'export function shout', replace: '/** Loud. */\nexport function shout' },
        ],
      },
      bed().ctx,
    );
    expect(result.isError).toBe(false);
    expect(result.display).toBe('2 edits');
    expect(await bed().read('src/greet.ts')).toBe(
      SOURCE.replace("'hello '", "'hi '").replace(
        'export function shout',
        '/** Loud. */\nexport function shout',
      ),
    );
    expect(result.output).toContain('Edited src/greet.ts: 2 edits applied; it now has 10 lines.');
    expect(result.output).toContain(
      "@@ Edit 1 of 2, line 4 @@\n-   return 'hello ' + name;\n+   return 'hi ' + name;",
    );
    expect(result.output).toContain(
      '@@ Edit 2 of 2, line 7 @@\n+ /** Loud. */\n  export function shout(name: string): string {',
    );
  });

  it('lets a later edit match text an earlier edit produced', async () => {
    await writeAndRead('a.txt', 'one\n');
    const result = await editFileTool.run(
      {
        path: 'a.txt',
        edits: [
          { find: 'one', replace: 'two' },
          { find: 'two', replace: 'three' },
        ],
      },
      bed().ctx,
    );
    expect(result.isError).toBe(false);
    expect(await bed().read('a.txt')).toBe('three\n');
  });

  it('deletes text when replace is empty', async () => {
    await writeAndRead('a.txt', 'keep\ndrop\nkeep too\n');
    const result = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'drop\n', replace: '' }] },
      bed().ctx,
    );
    expect(await bed().read('a.txt')).toBe('keep\nkeep too\n');
    expect(result.output).toContain('@@ line 2 @@\n- drop');
    expect(result.display).toBe('1 edit');
  });

  it('refuses to edit a file that was not read in this run', async () => {
    await bed().write('a.txt', 'content\n');
    const result = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'content', replace: 'x' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      'a.txt has not been read in this run. Read it with read_file before editing it.',
    );
    expect(await bed().read('a.txt')).toBe('content\n');
  });

  it('refuses to edit a file that changed on disk since it was read', async () => {
    const absolute = await writeAndRead('a.txt', 'content\n');
    await writeFile(absolute, 'someone else changed it\n');
    const result = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'changed', replace: 'x' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('a.txt has changed on disk since it was last read');
    expect(await bed().read('a.txt')).toBe('someone else changed it\n');
  });

  it('says when find is not found and shows the most similar lines with their numbers', async () => {
    await writeAndRead('src/greet.ts', SOURCE);
    const result = await editFileTool.run(
      { path: 'src/greet.ts', edits: [{ find: "return 'helo ' + nam;\n}", replace: 'x' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('The edit: the find text was not found in src/greet.ts.');
    expect(result.output).toContain("The lines most like its first line:\n4\t  return 'hello ' + name;");
    expect(result.output).toContain('No edit was applied; src/greet.ts is unchanged.');
  });

  it('says when find occurs several times and on which lines', async () => {
    await writeAndRead('src/greet.ts', SOURCE);
    const result = await editFileTool.run(
      { path: 'src/greet.ts', edits: [{ find: '(name: string): string {', replace: '(name: string) {' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('was found 2 times in src/greet.ts (starting at lines 3, 7)');
    expect(result.output).toContain('include more of the surrounding lines');
    expect(await bed().read('src/greet.ts')).toBe(SOURCE);
  });

  it('applies all edits or none: a failing second edit leaves the file unchanged', async () => {
    const absolute = await writeAndRead('src/greet.ts', SOURCE);
    const result = await editFileTool.run(
      {
        path: 'src/greet.ts',
        edits: [
          { find: 'hello', replace: 'hi' },
          { find: 'function whisper', replace: 'function murmur' },
        ],
      },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('Edit 2 of 2: the find text was not found');
    expect(await bed().read('src/greet.ts')).toBe(SOURCE);
    // Nothing was written, so the file still counts as read and unchanged.
    expect(await bed().files.whyNotEditable(absolute, 'src/greet.ts')).toBeNull();
  });

  it('refuses an edit whose find and replace are the same', async () => {
    await writeAndRead('a.txt', 'same\n');
    const result = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'same', replace: 'same' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('find and replace are the same text');
  });

  it('matches a model-written \\n against a Windows file and keeps its line ends', async () => {
    await writeAndRead('w.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await editFileTool.run(
      { path: 'w.txt', edits: [{ find: 'one\ntwo', replace: '1\n2' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(false);
    expect(await bed().read('w.txt')).toBe('1\r\n2\r\nthree\r\n');
  });

  it('can edit again after its own edit, without reading again', async () => {
    await writeAndRead('a.txt', 'v1\n');
    await editFileTool.run({ path: 'a.txt', edits: [{ find: 'v1', replace: 'v2' }] }, bed().ctx);
    const second = await editFileTool.run(
      { path: 'a.txt', edits: [{ find: 'v2', replace: 'v3' }] },
      bed().ctx,
    );
    expect(second.isError).toBe(false);
    expect(await bed().read('a.txt')).toBe('v3\n');
  });

  it('writes atomically and leaves no temp file behind', async () => {
    await writeAndRead('dir/a.txt', 'x\n');
    await editFileTool.run({ path: 'dir/a.txt', edits: [{ find: 'x', replace: 'y' }] }, bed().ctx);
    expect(await readdir(path.join(bed().root, 'dir'))).toEqual(['a.txt']);
  });

  it('says a missing file does not exist', async () => {
    const result = await editFileTool.run(
      { path: 'nope.txt', edits: [{ find: 'a', replace: 'b' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('nope.txt does not exist. To create a file, use write_file.');
  });

  it('refuses paths outside the workspace: .., absolute, and a symlink pointing out', async () => {
    const { root, outside } = bed();
    const target = path.join(outside, 'victim.txt');
    await writeFile(target, 'original\n');
    await symlink(target, path.join(root, 'link.txt'));
    for (const requested of ['../outside/victim.txt', target, 'link.txt']) {
      const result = await editFileTool.run(
        { path: requested, edits: [{ find: 'original', replace: 'x' }] },
        bed().ctx,
      );
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/outside the workspace/);
    }
    expect(await bed().read('../outside/victim.txt')).toBe('original\n');
  });

  it('rejects an empty list of edits with the wrapper message', async () => {
    const result = await editFileTool.run({ path: 'a.txt', edits: [] }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^The edit_file tool was called with invalid arguments:\n- edits: /);
  });

  it('refuses a file that is not UTF-8 rather than corrupting its other characters', async () => {
    const latin1 = Buffer.from('/* Auteur: Ren\xe9 */\nint x = 1;\n', 'latin1');
    const absolute = await bed().write('legacy.c', latin1.toString('latin1'));
    await writeFile(absolute, latin1);
    const read = await readFileTool.run({ path: 'legacy.c' }, bed().ctx);
    expect(read.output).toContain('is not valid UTF-8');
    const result = await editFileTool.run(
      { path: 'legacy.c', edits: [{ find: 'x = 1', replace: 'x = 2' }] },
      bed().ctx,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toContain('not valid UTF-8');
    expect(Buffer.compare(await import('node:fs/promises').then((fs) => fs.readFile(absolute)), latin1)).toBe(
      0,
    );
  });
});
