/**
 * The CLI's bundle (dist/bundle/main.cjs, one CommonJS file) loaded through V8's code cache.
 *
 * Node 20 has no compile cache for modules (`module.enableCompileCache` is Node 22), so a
 * command would parse and compile ~4 MB of JavaScript on every launch. Here the bundle is
 * compiled as a `vm.Script` with the cached data a previous launch of the same command wrote:
 * V8 then deserialises the bytecode of the top level and of every function that launch had
 * compiled, instead of compiling them again (bench/startup.ts measures what it saves).
 *
 * The cache lives in `$XDG_CACHE_HOME/taskweave/code-cache/` (`~/.cache/…` by default), one file
 * per command (a `run` compiles other functions than `tasks add`), named after Node's version,
 * the architecture, the flags and the bundle's size and modification time, so a rebuilt bundle
 * or another Node never reads a stale one (V8 itself also rejects data made by another V8 or
 * for another source length; a rejected cache is written again). It is written once, when the
 * command has finished or has run for a moment, atomically (a temporary file renamed), and any
 * failure to read or write it only costs the time it would have saved.
 * A long-running command (`work`, `serve`) says when its first run has ended (`warmed`): the cache
 * is then written once more, as `<command>-<key>.warm.bin`, with the code of that run compiled
 * too (a worker's first goal after a restart then starts with its code compiled, not lazily
 * compiled as it goes); a launch reads the warm file when there is one, and one that read it
 * does not write it again.
 * `TASKWEAVE_CODE_CACHE=0` turns it off. A script has no `import()` (scripts/bundle.mjs checks
 * that the bundle uses none): the bundle requires what it leaves outside.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** What the bundle exports (src/cli/main.ts). */
export interface CliBundle {
  main(argv: readonly string[], launcher?: LaunchHooks): Promise<number>;
}

/** What the CLI may tell the launcher while a command runs. */
export interface LaunchHooks {
  /** The command's first run has ended: its code is compiled, the code cache may keep it. */
  warmed(): void;
}

/** What became of the code cache: turned off, none yet, read and used, or refused by V8. */
export type CodeCacheState = 'off' | 'absent' | 'used' | 'rejected';

/** How long a command runs before the cache is written anyway (a session, a server, a long run). */
const WRITE_AFTER_MS = 1500;

/** Where the code caches live, or undefined when the cache is turned off. */
export function codeCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  if (env.TASKWEAVE_CODE_CACHE === '0') return undefined;
  const home = env.HOME || os.homedir();
  const cacheHome = env.XDG_CACHE_HOME || path.join(home, '.cache');
  return path.join(cacheHome, 'taskweave', 'code-cache');
}

/**
 * Loads the bundle at `bundleUrl` for a command named `command` (the cache's name: one of the
 * CLI's command words, or `other`), with the code cache in `folder` when there is one.
 * The caller calls `finished` when the command has ended.
 */
export function loadCliBundle(
  bundleUrl: URL,
  command: string,
  folder: string | undefined,
): { bundle: CliBundle; cache: CodeCacheState; finished: () => void; warmed: () => void } {
  const file = fileURLToPath(bundleUrl);
  // The build leaves the bundle ASCII only (scripts/bundle.mjs), so latin1 reads it exactly,
  // and three times faster than utf8.
  const source = readFileSync(file, 'latin1');
  const cacheFile = folder === undefined ? undefined : cacheFileFor(folder, file, command);
  const warmFile = cacheFile === undefined ? undefined : cacheFile.replace(/\.bin$/, WARM_SUFFIX);
  const warmData = warmFile === undefined ? undefined : readIfThere(warmFile);
  const cachedData = warmData ?? (cacheFile === undefined ? undefined : readIfThere(cacheFile));
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as CliBundle, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;

  const cache: CodeCacheState =
    cacheFile === undefined
      ? 'off'
      : cachedData === undefined
        ? 'absent'
        : script.cachedDataRejected
          ? 'rejected'
          : 'used';
  if (cacheFile === undefined || warmFile === undefined)
    return { bundle: module.exports, cache, ...NOTHING_TO_WRITE };
  // A warm cache V8 refused (another build's that kept its name) is not read again.
  if (cache === 'rejected' && warmData !== undefined) removeIfThere(warmFile);
  // The warm cache, once, when the first run has ended; never again by a launch that read it.
  let warmWritten = cache === 'used' && warmData !== undefined;
  let written = cache === 'used';
  let timer: NodeJS.Timeout | undefined;
  const warmed = () => {
    if (warmWritten) return;
    warmWritten = true;
    written = true;
    clearTimeout(timer);
    if (writeCache(script, warmFile)) removeIfThere(cacheFile);
  };
  if (written) return { bundle: module.exports, cache, finished: () => {}, warmed };
  // Written once: when the command ends, or after a moment if it runs on (a session, a server).
  const write = () => {
    if (written) return;
    written = true;
    writeCache(script, cacheFile);
  };
  timer = setTimeout(write, WRITE_AFTER_MS);
  timer.unref();
  return {
    bundle: module.exports,
    cache,
    finished: () => {
      clearTimeout(timer);
      write();
    },
    warmed,
  };
}

const NOTHING_TO_WRITE = { finished: () => {}, warmed: () => {} };

/** The name ending of a cache written after the command's first run. */
const WARM_SUFFIX = '.warm.bin';

/** A cache file's name: `<command>-<key>.bin`, or `….warm.bin`. */
const CACHE_NAME = /^(.*)-([0-9a-f]{16})(?:\.warm)?\.bin$/;

function cacheFileFor(folder: string, bundle: string, command: string): string | undefined {
  try {
    const { size, mtimeMs } = statSync(bundle);
    const key = [process.version, process.arch, process.execArgv.join(' '), bundle, size, mtimeMs].join('\0');
    return path.join(folder, `${command}-${hash64(key)}.bin`);
  } catch {
    return undefined;
  }
}

/**
 * 16 hex digits of FNV-1a over `text`, in two 32-bit lanes: a name for a cache key, not a secret
 * (node:crypto would cost `--help`, which loads this module too, a few milliseconds).
 */
export function hash64(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 16), 0x01000193) >>> 0;
  }
  return low.toString(16).padStart(8, '0') + high.toString(16).padStart(8, '0');
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Not there, or another process removed it first.
  }
}

/**
 * Writes the script's cache atomically and removes the command's caches of other builds; says
 * whether it was written.
 */
function writeCache(script: vm.Script, file: string): boolean {
  try {
    const data = script.createCachedData();
    const folder = path.dirname(file);
    mkdirSync(folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    const [, command = '', key = ''] = CACHE_NAME.exec(path.basename(file)) ?? [];
    for (const name of readdirSync(folder)) {
      const [, other, otherKey] = CACHE_NAME.exec(name) ?? [];
      if (other === command && otherKey !== key) removeIfThere(path.join(folder, name));
    }
    return true;
  } catch {
    // A read-only or full cache folder: the next launch compiles again, nothing else is lost.
    return false;
  }
}
