/**
 * better-sqlite3's native addon, named to it directly. The bundle (scripts/bundle.mjs) carries
 * better-sqlite3's JavaScript inside it, and better-sqlite3 would otherwise look for its addon
 * with the `bindings` package, which walks up from the calling file (wrong inside a bundle) and
 * stats a dozen candidate paths; loading the package from node_modules instead costs a launch
 * ~10 ms of module resolution (bench/startup.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Database from 'better-sqlite3';

let found: string | undefined | null = null;

/**
 * The path of better-sqlite3's compiled addon (`build/Release/better_sqlite3.node`, where its
 * install builds or downloads it), or undefined when it is elsewhere (then better-sqlite3 finds
 * it itself).
 */
export function sqliteNativeBinding(): string | undefined {
  if (found !== null) return found;
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    const addon = path.join(root, 'build', 'Release', 'better_sqlite3.node');
    found = existsSync(addon) ? addon : undefined;
  } catch {
    found = undefined;
  }
  return found;
}

/** better-sqlite3's constructor options with the addon named (see sqliteNativeBinding). */
export function withNativeBinding(options: Database.Options = {}): Database.Options {
  const nativeBinding = sqliteNativeBinding();
  return nativeBinding === undefined ? options : { ...options, nativeBinding };
}
