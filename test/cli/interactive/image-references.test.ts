import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImageReferences, withoutImageAts } from '../../../src/cli/interactive/image-references.js';

describe('findImageReferences', () => {
  it('takes @image paths of the workspace and pasted paths of existing image files; other text stays text', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-image-refs-'));
    await writeFile(path.join(folder, 'shot.png'), 'x');
    await writeFile(path.join(folder, 'my shot.jpg'), 'x');
    const resolve = async (relative: string) => path.join(folder, relative);
    const typed = `fix the header as in @shot.png and '${folder}/my shot.jpg', see @src/app.ts and ${folder}/gone.png`;
    const found = await findImageReferences(typed, resolve);
    expect(found).toEqual({
      files: [path.join(folder, 'shot.png'), path.join(folder, 'my shot.jpg')],
      atPaths: ['shot.png'],
    });
    expect(withoutImageAts(typed, found.atPaths)).toContain('as in shot.png and');
    expect(withoutImageAts(typed, found.atPaths)).toContain('@src/app.ts');
    expect(await findImageReferences('mail me at user@host.png', resolve)).toEqual({
      files: [],
      atPaths: [],
    });
  });
});
