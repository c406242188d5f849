// Which store a command opens: `--store`, else `TASKWEAVE_STORE`, else `store` in the user's own
// config file, else the workspace's SQLite file. Read without the config schema (zod) so that the
// quick listing path can ask too; the full config load validates the key.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The environment variable that names a shared store. */
export const STORE_ENV = 'TASKWEAVE_STORE';

/** A store chosen by the user, and where the choice came from (for messages). */
export interface StoreChoice {
  url: string;
  source: '--store' | typeof STORE_ENV | 'config';
}

/**
 * The store the user chose, or undefined for the workspace's SQLite file. A workspace's own
 * `.taskweave/config.json` cannot choose it: a cloned repository must not send the sessions of
 * whoever works in it to a server of its choosing.
 */
export async function chosenStore(options: {
  store?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<StoreChoice | undefined> {
  const env = options.env ?? process.env;
  if (options.store !== undefined && options.store.trim() !== '')
    return { url: options.store, source: '--store' };
  const fromEnv = env[STORE_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: fromEnv, source: STORE_ENV };
  const fromConfig = await userConfigStore(env);
  return fromConfig === undefined ? undefined : { url: fromConfig, source: 'config' };
}

/** `store` of the user's config file (`$XDG_CONFIG_HOME/taskweave/config.json`), when it is set. */
async function userConfigStore(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const home = env.HOME || os.homedir();
  const file = path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'taskweave', 'config.json');
  let parsed: unknown;
  try {
    // Synchronous: a small file, usually missing, read once before the store opens (a thread-pool
    // round trip and a rejected promise cost a launch more than the read).
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Missing or unreadable: the full config load says what is wrong with it, when it matters.
    return undefined;
  }
  const store = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'store') : undefined;
  return typeof store === 'string' && store.trim() !== '' ? store : undefined;
}
