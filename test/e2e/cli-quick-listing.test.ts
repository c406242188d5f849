import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageOf, ROOT, trace } from '../../bench/load-trace.js';
import { openWorkspaceStore } from '../../src/runtime/setup/open-store.js';
import { pipeIntoHead, runCli, writeScript } from '../helpers/cli.js';

/** Runs the full CLI (the bundle's main, past bin/taskweave.js's quick paths) with `args`. */
function full(args: string[]) {
  const main = path.join(ROOT, 'dist', 'bundle', 'main.cjs');
  const result = spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(main)}).main(process.argv).then((code) => { process.exitCode = code; });`,
      '--',
      // process.argv of `node -e` has no script: a word in its place, as main() skips two.
      'taskweave',
      ...args,
    ],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The modules of the bundle and the packages a command loaded, relative to the checkout. */
function loaded(args: string[]): string[] {
  const { files, exit } = trace(args);
  expect(exit).toBe(0);
  const bundle = path.join(ROOT, 'dist', 'bundle') + path.sep;
  return [...files]
    .filter((file) => file.startsWith(bundle) || packageOf(file) !== undefined)
    .map((file) => packageOf(file) ?? path.relative(ROOT, file))
    .filter((name, index, all) => all.indexOf(name) === index);
}

describe('tasks list and sessions list answered without the CLI parser or the ORM', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'taskweave-quick-listing-'));
    const script = await writeScript(folder, { turns: [{ text: 'Nothing to do.' }] });
    for (const goal of ['first goal', 'second goal']) {
      expect((await runCli(['run', '-C', folder, '--model', `script:${script}`, goal])).code).toBe(0);
    }
    for (const [description, queue] of [
      ['write the docs', 'default'],
      ['tidy the build', 'default'],
      ['ship it', 'other'],
    ] as const) {
      expect((await runCli(['tasks', 'add', '-C', folder, '--queue', queue, description])).code).toBe(0);
    }
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('prints what the full CLI prints, for every spelling of the options', async () => {
    const variants = [
      ['tasks'],
      ['tasks', 'list'],
      ['tasks', 'list', '--all'],
      ['tasks', '-a', '--json'],
      ['tasks', 'list', '-q', 'other'],
      ['tasks', 'list', '--queue=other', '--json'],
      ['tasks', 'list', '--queue', 'nothing-here'],
      ['sessions'],
      ['sessions', 'list', '-n', '1'],
      ['sessions', 'list', '--limit=1', '--json'],
      ['sessions', 'list', '--json'],
    ];
    for (const args of variants) {
      const withFolder = [...args, '-C', folder];
      const quick = await runCli(withFolder);
      expect(quick.code, args.join(' ')).toBe(0);
      // `just now` / `12 s ago` may move between the two runs: compare without the times.
      const times = /\b(just now|\d+ s ago|\d+ min ago)\b/g;
      const expected = full(withFolder);
      expect(quick.stdout.replace(times, 'T'), args.join(' ')).toBe(expected.stdout.replace(times, 'T'));
      expect(quick.stderr).toBe(expected.stderr);
    }
  });

  it('loads one small module of the bundle and better-sqlite3, not commander, drizzle or zod', () => {
    for (const args of [
      ['tasks', 'list', '-C', folder],
      ['tasks', '--all', '--json', '-C', folder],
      ['sessions', 'list', '-C', folder],
    ]) {
      expect(loaded(args)).toEqual([
        path.join('dist', 'bundle', 'quick.cjs'),
        path.join('dist', 'bundle', 'listing.js'),
        // Its addon only: better-sqlite3's JavaScript is in the bundle.
        'better-sqlite3',
      ]);
    }
  });

  it('ends quietly when its reader goes away (`tasks list | head -1`)', async () => {
    const many = await mkdtemp(path.join(tmpdir(), 'taskweave-quick-listing-head-'));
    // More than a pipe holds (64 KiB), so that the listing is still writing when head has gone.
    const { store } = await openWorkspaceStore({ cwd: many }, { create: true });
    await store.transaction(async () => {
      for (let index = 0; index < 1500; index++) {
        await store.tasks.add({ title: `task number ${index}` });
        await store.sessions.createSession({
          title: `goal ${index}`,
          goal: `goal ${index}`,
          workspace: many,
          model: 'script:none',
        });
      }
    });
    await store.close();
    for (const args of [
      ['tasks', 'list'],
      ['sessions', 'list', '--limit', '1500'],
    ]) {
      const command = args[0]!;
      const piped = await pipeIntoHead([...args, '-C', many], path.join(many, `${command}.code`));
      expect(piped.head, command).toMatch(/^\s*(#|id) /);
      expect(piped.stderr, command).toBe('');
      expect(piped.code, command).toBe(0);
    }
    await rm(many, { recursive: true, force: true });
  });

  it('leaves anything else to the full CLI: another option, a bad value, help, a missing folder', async () => {
    for (const args of [
      ['tasks', 'list', '--bogus', '-C', folder],
      ['sessions', 'list', '-n', '0', '-C', folder],
      ['tasks', 'list', '--help'],
      ['sessions', 'list', '-C', path.join(folder, 'missing')],
    ]) {
      const quick = await runCli(args);
      const expected = full(args);
      expect({ code: quick.code, stdout: quick.stdout, stderr: quick.stderr }, args.join(' ')).toEqual(
        expected,
      );
    }
    expect(loaded(['tasks', 'list', '--all', '-q', 'other', '-C', folder])).not.toContain('drizzle-orm');
    // A workspace with no database yet: the full CLI says the list is empty.
    const empty = path.join(folder, 'no-database-here');
    await mkdir(empty);
    expect(loaded(['tasks', 'list', '-C', empty])).toContain('drizzle-orm');
  });
});
