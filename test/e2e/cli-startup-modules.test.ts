import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HEAVY_PACKAGES, packageOf, ROOT, trace } from '../../bench/load-trace.js';

/** The heavy packages a run of the built CLI loaded, in HEAVY_PACKAGES' order. */
function heavyLoaded(args: string[]): string[] {
  const { files, exit } = trace(args);
  expect(exit).toBe(0);
  const loaded = new Set([...files].map(packageOf));
  return HEAVY_PACKAGES.filter((name) => loaded.has(name));
}

describe('what a quick command loads', () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it('--help and --version load no model SDK, database, schema library or ripgrep', () => {
    expect(heavyLoaded(['--help'])).toEqual([]);
    expect(heavyLoaded(['--version'])).toEqual([]);
    expect(heavyLoaded(['sessions', '--help'])).toEqual([]);
  });

  it('--help and --version load one small module of the bundle and no package (not even commander)', () => {
    const bundle = path.join(ROOT, 'dist', 'bundle') + path.sep;
    for (const args of [['--help'], ['-h'], ['--version'], ['-V']]) {
      const { files, exit } = trace(args);
      expect(exit).toBe(0);
      const modules = [...files].filter((file) => file.startsWith(bundle) || packageOf(file) !== undefined);
      expect(modules.map((file) => path.relative(ROOT, file))).toEqual([
        path.join('dist', 'bundle', 'quick.cjs'),
      ]);
    }
  });

  it('tasks list and sessions list open the store but load no model SDK, schema library or ripgrep', async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-startup-'));
    const store = ['better-sqlite3', 'drizzle-orm'];
    expect(heavyLoaded(['tasks', 'list', '-C', folder])).toEqual(store);
    expect(heavyLoaded(['sessions', 'list', '-C', folder])).toEqual(store);
  });

  it('a run loads the SDK of its own provider only, no MCP SDK without MCP servers, no markdown renderer or width tables when piped', async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-startup-'));
    const script = path.join(folder, 'script.json');
    await writeFile(script, JSON.stringify({ turns: [{ text: 'Nothing to do.' }] }));
    expect(heavyLoaded(['run', '-C', folder, '--model', `script:${script}`, 'say hi'])).toEqual([
      'ai',
      '@ai-sdk/provider',
      '@ai-sdk/provider-utils',
      'better-sqlite3',
      'drizzle-orm',
      'zod',
    ]);
  });
});
