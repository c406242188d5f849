import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import { findOnPath } from '../../src/tools/process/find-on-path.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { Workspace } from '../../src/tools/workspace/workspace.js';
import { createToolTestBed, type ToolTestBed } from '../helpers/tool-context.js';

/*
 * Issue 39, item 4: as root, a sandboxed command ran as uid 1000 inside, mapped to root outside;
 * a file it made was root's and `chmod 6755` worked, so any local user running it was root (the
 * sandbox's own bind is nosuid, the host's folder is not).
 */
const asRoot = process.getuid?.() === 0;
const found = await probeSandbox();
const setpriv = findOnPath('setpriv');
const why = !asRoot
  ? 'needs root: the hole is a root-owned file made by a command'
  : !found.available
    ? `needs bubblewrap: ${found.reason}`
    : undefined;

const SETUID_BITS = 0o6000;

describe.skipIf(why !== undefined)(
  `the sandbox as root makes no set-user-ID root program (issue 39, item 4)${why ? ` — skipped: ${why}` : ''}`,
  () => {
    let bed: ToolTestBed;
    let root: string;
    let workspace: Workspace;
    beforeEach(async () => {
      bed = await createToolTestBed();
      // On the host's file system, outside /tmp (the sandbox's own /tmp is private).
      root = await mkdtemp(path.join('/var/tmp', 'taskweave-setuid-'));
      workspace = await Workspace.open(root);
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
      await bed.cleanup();
    });

    async function run(command: string) {
      if (!found.available) throw new Error('no bubblewrap');
      const sandbox: CommandSandbox = {
        kind: 'bwrap',
        bwrap: found.bwrap,
        mode: 'workspace-write',
        network: false,
      };
      return runCommandTool.run({ command, continue_on_error: true }, { ...bed.ctx, workspace, sandbox });
    }

    /** Whether a file is a set-user-ID or set-group-ID program of root as the host sees it. */
    function setuidRoot(file: string): boolean {
      const info = statSync(file);
      return (info.uid === 0 && (info.mode & 0o4000) !== 0) || (info.gid === 0 && (info.mode & 0o2000) !== 0);
    }

    it('chmod 6755 on a program it made leaves no set-user-ID root file, whatever way it tries', async () => {
      const attempts = [
        'cp /usr/bin/id id-chmod && chmod 6755 id-chmod',
        'cp /usr/bin/id id-octal && chmod u+s,g+s id-octal',
        `python3 -c "import os; os.close(os.open('id-open', os.O_CREAT | os.O_WRONLY, 0o6755))"`,
        `python3 -c "import os, shutil; shutil.copy('/usr/bin/id', 'id-fchmod'); fd = os.open('id-fchmod', os.O_RDONLY); os.fchmod(fd, 0o6755)"`,
        'install -m 6755 /usr/bin/id id-install',
        'mkdir -m 2775 setgid-folder',
      ];
      for (const attempt of attempts) await run(attempt);
      const made = ['id-chmod', 'id-octal', 'id-open', 'id-fchmod', 'id-install', 'setgid-folder'].map(
        (name) => path.join(root, name),
      );
      expect(
        made.filter((file) => existsSync(file) && setuidRoot(file)).map((file) => path.basename(file)),
      ).toEqual([]);
      // Ordinary permissions still work: a program it makes runs.
      const ordinary = await run(
        'cp /usr/bin/id own-id && chmod 755 own-id && ./own-id -u && for fd in /proc/$$/fd/*; do echo "fd $(basename $fd) $(readlink $fd)"; done',
      );
      expect(ordinary.isError, ordinary.output).toBe(false);
      // The socket bubblewrap read the filter from is not left open for the command: the only
      // sockets are its stdout and stderr.
      const sockets = [...ordinary.output.matchAll(/^fd (\d+) socket:/gm)].map((match) => match[1]);
      expect(sockets).toEqual(['1', '2']);
      expect(statSync(path.join(root, 'own-id')).mode & 0o777).toBe(0o755);
    });

    it.runIf(setpriv !== undefined)('another user running what it made does not become root', async () => {
      await run('cp /usr/bin/id id-copy && chmod 6755 id-copy');
      const program = path.join(root, 'id-copy');
      expect(existsSync(program)).toBe(true);
      const printed = execFileSync(
        setpriv ?? 'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', program],
        { encoding: 'utf8' },
      );
      expect(printed).not.toMatch(/euid=0|egid=0/);
      expect(statSync(program).mode & SETUID_BITS).toBe(0);
    });
  },
);
