import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFolder, hash64 } from '../../src/cli/code-cache.js';
import { commandWord } from '../../src/cli/launch.js';
import { runCli, writeScript } from '../helpers/cli.js';

const QUICK = new URL('../../dist/bundle/quick.cjs', import.meta.url).href;

/** A bundle shaped like dist/bundle/main.cjs: CommonJS, requiring a builtin and a package. */
function fixtureSource(answer: number): string {
  return [
    "const path = require('node:path');",
    'exports.main = async (argv) => {',
    `  const { z } = require(${JSON.stringify(path.join(process.cwd(), 'node_modules', 'zod'))});`,
    `  return argv.length + ${answer} + (z.string().parse(path.sep) === '/' ? 0 : 1000);`,
    '};',
    // Enough code that V8 has something to cache.
    ...Array.from({ length: 200 }, (_, index) => `exports.f${index} = (x) => x * ${index} + ${answer};`),
  ].join('\n');
}

describe('the CLI bundle loaded through V8 code cache', () => {
  let folder: string;
  let bundle: string;
  let cache: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-code-cache-'));
    bundle = path.join(folder, 'main.cjs');
    cache = path.join(folder, 'cache');
    await writeFile(bundle, fixtureSource(1));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /**
   * Loads the bundle in a new process, as bin/taskweave.js does (V8 would otherwise find the
   * script in this process's own compilation cache and never read the code cache), runs its main
   * and ends the command; resolves with what became of the cache and what main answered.
   */
  const load = (command = 'run', cacheFolder: string | null = cache, firstRun: 'ends' | 'warms' = 'ends') => {
    const code = [
      `const { loadCliBundle } = await import(${JSON.stringify(QUICK)});`,
      `const loaded = loadCliBundle(new URL(${JSON.stringify(pathToFileURL(bundle).href)}), ${JSON.stringify(command)}, ${JSON.stringify(cacheFolder ?? undefined)});`,
      'const answer = await loaded.bundle.main(process.argv);',
      // A long-running command's first run: more of the bundle's code runs, then it says so.
      // (Told by the environment: the code is part of the cache's key, as node's flags.)
      "if (process.env.FIRST_RUN === 'warms') {",
      "  for (let i = 0; i < 200; i++) loaded.bundle['f' + i](i);",
      '  loaded.warmed();',
      '}',
      'loaded.finished();',
      'console.log(JSON.stringify({ cache: loaded.cache, answer }));',
    ].join('\n');
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      env: { ...process.env, FIRST_RUN: firstRun },
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { cache: string; answer: number };
  };

  it('writes the cache once the command has finished, and the next launch uses it', async () => {
    expect(load()).toEqual({ cache: 'absent', answer: 2 });
    const files = await readdir(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^run-[0-9a-f]{16}\.bin$/);

    expect(load()).toEqual({ cache: 'used', answer: 2 });
    // Another command has a cache of its own.
    expect(load('tasks').cache).toBe('absent');
    const both = await readdir(cache);
    expect(both).toHaveLength(2);
    expect(both).toContain(files[0]);
    expect(both.find((name) => name !== files[0])).toMatch(/^tasks-[0-9a-f]{16}\.bin$/);
    expect(load('tasks').cache).toBe('used');
  });

  it('never reads a cache made for another build of the bundle, and drops it', async () => {
    load();
    const [old] = await readdir(cache);
    // A rebuild of the same length: only the key (size and time of the file) tells them apart.
    await writeFile(bundle, fixtureSource(7));
    await utimes(bundle, new Date(), new Date(Date.now() + 5000));
    expect(load()).toEqual({ cache: 'absent', answer: 8 });
    const files = await readdir(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe(old);
  });

  it('writes again a cache that V8 refuses (damaged), and loads the bundle all the same', async () => {
    load();
    const [file] = await readdir(cache);
    await writeFile(path.join(cache, file!), 'not a code cache');
    expect(load()).toEqual({ cache: 'rejected', answer: 2 });
    expect(load().cache).toBe('used');
  });

  it("writes a warm cache once a long-running command's first run has ended, read by later launches and kept", async () => {
    load();
    const [plain] = await readdir(cache);
    const plainSize = (await stat(path.join(cache, plain!))).size;
    // A launch that used the plain cache, then ended its first run: the warm one replaces it.
    expect(load('run', cache, 'warms')).toEqual({ cache: 'used', answer: 2 });
    const [warm, ...others] = await readdir(cache);
    expect(others).toEqual([]);
    expect(warm).toBe(plain?.replace(/\.bin$/, '.warm.bin'));
    const written = await stat(path.join(cache, warm!));
    // It holds the functions the run compiled (200 of them), which the plain one did not.
    expect(written.size).toBeGreaterThan(plainSize + 2_000);
    // Later launches read it and write nothing: a plain end, or another first run.
    expect(load()).toEqual({ cache: 'used', answer: 2 });
    expect(load('run', cache, 'warms')).toEqual({ cache: 'used', answer: 2 });
    expect(await readdir(cache)).toEqual([warm]);
    expect((await stat(path.join(cache, warm!))).mtimeMs).toBe(written.mtimeMs);
    // A rebuild: the warm cache of the old build is dropped with the plain one.
    await writeFile(bundle, fixtureSource(7));
    await utimes(bundle, new Date(), new Date(Date.now() + 5000));
    expect(load('run', cache, 'warms')).toEqual({ cache: 'absent', answer: 8 });
    const [rebuilt, ...rest] = await readdir(cache);
    expect(rest).toEqual([]);
    expect(rebuilt).toMatch(/^run-[0-9a-f]{16}\.warm\.bin$/);
    expect(rebuilt).not.toBe(warm);
    // A damaged warm cache is refused, dropped, and written again by the next first run.
    await writeFile(path.join(cache, rebuilt!), 'not a code cache');
    expect(load()).toEqual({ cache: 'rejected', answer: 8 });
    expect(await readdir(cache)).toEqual([expect.stringMatching(/^run-[0-9a-f]{16}\.bin$/)]);
    expect(load('run', cache, 'warms').cache).toBe('used');
    expect(await readdir(cache)).toEqual([rebuilt]);
    expect(load().cache).toBe('used');
  });

  it('is off with TASKWEAVE_CODE_CACHE=0, and a cache folder it cannot write costs nothing else', async () => {
    expect(codeCacheFolder({ TASKWEAVE_CODE_CACHE: '0', HOME: folder })).toBeUndefined();
    expect(codeCacheFolder({ HOME: folder })).toBe(path.join(folder, '.cache', 'taskweave', 'code-cache'));
    expect(codeCacheFolder({ HOME: folder, XDG_CACHE_HOME: cache })).toBe(
      path.join(cache, 'taskweave', 'code-cache'),
    );
    expect(load('run', null)).toEqual({ cache: 'off', answer: 2 });
    // A folder that cannot be made (a file is in the way; root may write anywhere else).
    const blocked = path.join(bundle, 'cache');
    expect(load('run', blocked)).toEqual({ cache: 'absent', answer: 2 });
    expect(load('run', blocked)).toEqual({ cache: 'absent', answer: 2 });
  });
});

describe('the cache key', () => {
  it('is 16 hex digits that change with any part of the key', () => {
    const keys = [
      'v20.20.2\0x64\0\0/a/main.cjs\x03801628\x01',
      'v20.20.2\0x64\0\0/a/main.cjs\x03801628\x02',
      'v22\0x64',
    ];
    const hashes = keys.map(hash64);
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(hashes).size).toBe(keys.length);
    expect(hash64(keys[0]!)).toBe(hashes[0]);
  });
});

describe('the command a launch caches for', () => {
  const layout = new URL('../../dist/bundle/help-layout.json', import.meta.url);
  it('is a command word of the program, or other', () => {
    expect(commandWord(['node', 'taskweave', 'run', 'fix it'], layout)).toBe('run');
    expect(commandWord(['node', 'taskweave', 'tasks', 'add', 'x'], layout)).toBe('tasks');
    expect(commandWord(['node', 'taskweave', 'fix the build'], layout)).toBe('other');
    expect(commandWord(['node', 'taskweave', 'runn'], layout)).toBe('other');
    expect(commandWord(['node', 'taskweave', '--model', 'x'], layout)).toBe('other');
    expect(commandWord(['node', 'taskweave'], layout)).toBe('other');
    expect(commandWord(['node', 'taskweave', 'run'], new URL('file:///nowhere/layout.json'))).toBe('other');
  });
});

describe('taskweave with a code cache', () => {
  it('writes one per command in $XDG_CACHE_HOME (work: after its first run), gives the same answers with it, none when turned off', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'taskweave-code-cache-cli-'));
    const workspace = path.join(home, 'work');
    await mkdir(workspace);
    try {
      const env = { XDG_CACHE_HOME: path.join(home, 'cache') };
      const first = await runCli(['tasks', 'add', 'first', '-C', workspace], { env });
      expect(first.code).toBe(0);
      const folder = path.join(home, 'cache', 'taskweave', 'code-cache');
      expect(await readdir(folder)).toEqual([expect.stringMatching(/^tasks-[0-9a-f]{16}\.bin$/)]);
      const second = await runCli(['tasks', 'add', 'second', '-C', workspace], { env });
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/^Added \S+ "second": queued as #2/);
      expect(await readdir(folder)).toHaveLength(1);
      // `work` runs on after its first run: the cache it leaves is the one written after that run.
      const script = await writeScript(home, {
        turns: [{ text: 'Nothing to do.' }, { text: 'Nothing to do.' }],
      });
      const work = await runCli(['work', '--model', `script:${script}`, '-C', workspace], { env });
      expect(work.code, work.stdout + work.stderr).toBe(0);
      expect(work.stdout).toContain('queue: 2 completed, 0 failed');
      expect((await readdir(folder)).sort()).toEqual([
        expect.stringMatching(/^tasks-[0-9a-f]{16}\.bin$/),
        expect.stringMatching(/^work-[0-9a-f]{16}\.warm\.bin$/),
      ]);
      const off = { XDG_CACHE_HOME: path.join(home, 'off'), TASKWEAVE_CODE_CACHE: '0' };
      expect((await runCli(['tasks', 'add', 'third', '-C', workspace], { env: off })).code).toBe(0);
      await expect(readdir(path.join(home, 'off'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
