import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_SERVERS } from '../../../src/tools/lsp/server-specs.js';

const typescript = BUILT_IN_SERVERS.find((spec) => spec.id === 'typescript')!;

describe('the TypeScript server spec', () => {
  it('serves TypeScript anywhere, plain JavaScript only under a tsconfig.json or jsconfig.json', async () => {
    const bare = await mkdtemp(path.join(tmpdir(), 'taskweave-specs-'));
    await writeFile(path.join(bare, 'package.json'), '{}');
    expect(typescript.serves?.(path.join(bare, 'src', 'version.js'), bare) ?? true).toBe(false);
    expect(typescript.serves?.(path.join(bare, 'src', 'index.ts'), bare) ?? true).toBe(true);
    for (const project of ['tsconfig.json', 'jsconfig.json']) {
      const root = await mkdtemp(path.join(tmpdir(), 'taskweave-specs-'));
      await writeFile(path.join(root, project), '{}');
      expect(typescript.serves?.(path.join(root, 'src', 'version.mjs'), root) ?? true).toBe(true);
    }
  });

  it('is warmed only by a project file, not by a bare package.json', () => {
    expect(typescript.warmMarkers).toEqual(['tsconfig.json', 'jsconfig.json']);
  });
});
