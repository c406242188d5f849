import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

/*
 * A store URL the URL parser reads without a user part (one slash after the scheme, a password
 * with `?` or `#` in it) still holds a password: every message shows such a URL redacted too.
 */

const SECRET = 'secret-Hunter2';

/** A HOME of its own, so that the user's config cannot choose a store for the test. */
async function isolatedHome(): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
  const home = await tempWorkspaceRoot('taskweave-home-');
  return { home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), TASKWEAVE_STORE: '' } };
}

const MALFORMED = [
  `postgres:/u:${SECRET}@h/db`,
  `postgresql:u:${SECRET}@h/db`,
  `postgres:/u:${SECRET}@127.0.0.1:1/db`,
  `postgres://u:12?${SECRET}@127.0.0.1/db`,
  `mysql:/u:${SECRET}@h/db`,
];

describe('a malformed store URL is printed redacted', () => {
  it.each(MALFORMED)('--store %s: exit 2, a plain error, no password', async (url) => {
    const workspace = await tempWorkspaceRoot('taskweave-store-url-');
    const { env } = await isolatedHome();
    const result = await runCli(['tasks', 'list', '--store', url, '--cwd', workspace], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/store .*\(from --store\)/);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
    const both = await runCli(['tasks', 'list', '--store', url, '--db', 'x.db', '--cwd', workspace], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--db and a shared store');
    expect(both.stderr).not.toContain(SECRET);
  });

  it('from TASKWEAVE_STORE and from the user config alike', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-store-url-');
    const { home, env } = await isolatedHome();
    const fromEnv = await runCli(['tasks', 'list', '--cwd', workspace], {
      env: { ...env, TASKWEAVE_STORE: `postgres:/u:${SECRET}@h/db` },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('(from TASKWEAVE_STORE)');
    const configFolder = path.join(home, '.config', 'taskweave');
    await mkdir(configFolder, { recursive: true });
    await writeFile(
      path.join(configFolder, 'config.json'),
      JSON.stringify({ store: `postgres:/u:${SECRET}@h/db` }),
    );
    const fromConfig = await runCli(['tasks', 'list', '--cwd', workspace], { env });
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('(from config)');
    for (const result of [fromEnv, fromConfig]) {
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
    }
  });
});
