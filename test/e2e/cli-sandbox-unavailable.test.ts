import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/tools/process/find-on-path.js';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

const realBwrap = findOnPath('bwrap');
if (realBwrap === undefined) throw new Error('This test needs bubblewrap');

/**
 * A PATH whose bwrap works except that it cannot make a PID namespace (as in a container that
 * forbids them): the sandbox would not confine a root command's view of taskweave's process.
 */
const made: string[] = [];
afterAll(async () => {
  for (const folder of made) await rm(folder, { recursive: true, force: true });
});

async function pathWithoutPidNamespaces(options: { pidNamespaces: boolean }): Promise<string> {
  // Not under /tmp, which the sandbox replaces: the commands inside find their programs here too.
  const bin = await mkdtemp(path.join('/var/tmp', 'taskweave-nopidns-'));
  made.push(bin);
  for (const program of ['bash', 'sh', 'node', 'echo', 'true']) {
    const real = ['/usr/bin', '/bin', path.dirname(process.execPath)]
      .map((folder) => path.join(folder, program))
      .find((file) => existsSync(file));
    if (real) await symlink(real, path.join(bin, program));
  }
  if (options.pidNamespaces) {
    await symlink(realBwrap as string, path.join(bin, 'bwrap'));
    return bin;
  }
  await writeFile(
    path.join(bin, 'bwrap'),
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = --unshare-pid ] && { echo "bwrap: Creating new namespace failed: Operation not permitted" >&2; exit 1; }; done\nexec ${realBwrap} "$@"\n`,
    { mode: 0o755 },
  );
  return bin;
}

describe('a bwrap that cannot give the whole confinement (issue 23, item 5)', () => {
  it('claims no sandbox, says why once, and asks for every command (also with --approval auto)', async () => {
    const workspace = await tempWorkspaceRoot('taskweave-nopidns-');
    const scripts = await tempWorkspaceRoot('taskweave-script-');
    const model = `script:${await writeScript(scripts, {
      turns: [
        { toolCalls: [{ name: 'run_command', args: { command: 'echo hi > ran.txt' } }] },
        { text: 'done' },
      ],
    })}`;
    const args = ['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'go'];
    const run = await runCli(args, {
      env: { PATH: await pathWithoutPidNamespaces({ pidNamespaces: false }) },
    });
    expect(run.code, run.stdout + run.stderr).toBe(4);
    expect(run.stdout).toContain('· approval auto · sandbox unavailable');
    expect(
      run.stdout.match(
        /Commands cannot be sandboxed: bubblewrap cannot create its namespaces here \(bwrap: Creating new namespace failed/g,
      ),
    ).toHaveLength(1);
    expect(run.stdout).toContain(
      'Run with --sandbox off (bubblewrap is not available, so commands are asked)',
    );
    expect(existsSync(path.join(workspace, 'ran.txt'))).toBe(false);

    // The same PATH with a bwrap that can: the command runs sandboxed, unasked.
    const control = await runCli(args, {
      env: { PATH: await pathWithoutPidNamespaces({ pidNamespaces: true }) },
    });
    expect(control.code, control.stdout + control.stderr).toBe(0);
    expect(control.stdout).toContain('· approval auto · sandbox workspace-write (no network)');
    expect(existsSync(path.join(workspace, 'ran.txt'))).toBe(true);
  });
});
