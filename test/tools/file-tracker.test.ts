import { rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useToolTestBed } from '../helpers/tool-context.js';

describe('FileTracker', () => {
  const bed = useToolTestBed();

  it('allows an edit only while the content on disk is what was read', async () => {
    const { files, write } = bed();
    const absolute = await write('a.txt', 'one');
    expect(await files.whyNotEditable(absolute, 'a.txt')).toMatch(/has not been read/);
    files.remember(absolute, 'one');
    expect(await files.whyNotEditable(absolute, 'a.txt')).toBeNull();
    await writeFile(absolute, 'two');
    expect(await files.whyNotEditable(absolute, 'a.txt')).toMatch(/has changed on disk/);
  });

  it('says a file deleted since it was read no longer exists', async () => {
    const { files, write } = bed();
    const absolute = await write('a.txt', 'one');
    files.remember(absolute, 'one');
    await rm(absolute);
    expect(await files.whyNotEditable(absolute, 'a.txt')).toBe(
      'a.txt no longer exists on disk. Check the path, or create the file with write_file.',
    );
  });
});
