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
  main(argv: readonly string[]): Promise<number>;
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
): { bundle: CliBundle; cache: CodeCacheState; finished: () => void } {
  const file = fileURLToPath(bundleUrl);
  // The build leaves the bundle ASCII only (scripts/bundle.mjs), so latin1 reads it exactly,
  // and three times faster than utf8.
  const source = readFileSync(file, 'latin1');
  const cacheFile = folder === undefined ? undefined : cacheFileFor(folder, file, command);
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
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
  if (cacheFile === undefined || cache === 'used')
    return { bundle: module.exports, cache, finished: () => {} };
  // Written once: when the command ends, or after a moment if it runs on (a session, a server).
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeCache(script, cacheFile);
  };
  const timer = setTimeout(write, WRITE_AFTER_MS);
  timer.unref();
  return {
    bundle: module.exports,
    cache,
    finished: () => {
      clearTimeout(timer);
      write();
    },
  };
}

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

/** Writes the script's cache atomically and removes the command's caches of other builds. */
function writeCache(script: vm.Script, file: string): void {
  try {
    const data = script.createCachedData();
    const folder = path.dirname(file);
    mkdirSync(folder, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    const command = path.basename(file).replace(/-[0-9a-f]{16}\.bin$/, '');
    for (const name of readdirSync(folder)) {
      const other =
        name.startsWith(`${command}-`) && /^[0-9a-f]{16}\.bin$/.test(name.slice(command.length + 1));
      if (other && name !== path.basename(file)) {
        try {
          unlinkSync(path.join(folder, name));
        } catch {
          // Another process removed it first.
        }
      }
    }
  } catch {
    // A read-only or full cache folder: the next launch compiles again, nothing else is lost.
  }
}
