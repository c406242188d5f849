import path from 'node:path';
import { packageRoot } from '../../util/package-root.js';
import type { SandboxMode } from '../sandbox-modes.js';
import { CONFINEMENT_FLAGS, identityFlags, seccompConfinement } from './sandbox-confinement.js';
import {
  hiddenFolderArguments,
  hiddenRuntimeFolders,
  withoutSocketVariables,
} from './sandbox-hidden-paths.js';
import { coveredSocketArguments, hostSocketPaths } from './sandbox-host-sockets.js';
import { protectedWorkspaceArguments } from './sandbox-workspace-mounts.js';

export { READ_ONLY_IN_WORKSPACE } from './sandbox-workspace-mounts.js';

/**
 * How run_command runs its commands: under bubblewrap (`bwrap` is the program found), or
 * unconfined (`--sandbox off`, or bubblewrap is not usable here).
 */
export type CommandSandbox =
  | {
      kind: 'bwrap';
      bwrap: string;
      mode: Exclude<SandboxMode, 'off'>;
      network: boolean;
      /**
       * With the network off: unix sockets may be made (a browser needs them to start), and the
       * sockets bound on the machine are covered instead (sandbox-host-sockets). Only the checks of
       * `taskweave eval --suite web-bench` ask for it; the agent's commands never do.
       */
      unixSockets?: boolean;
    }
  | { kind: 'none' };

/** taskweave's own installation (`src/tools/` or `dist/tools/` is two folders down). */

/**
 * How one command is started in the sandbox: bwrap's arguments (before `--`), the environment,
 * and what bwrap reads on WRAPPER_INPUT_FD (the seccomp filter).
 */
export interface SandboxLaunch {
  args: string[];
  env: NodeJS.ProcessEnv;
  input?: Buffer;
}

/**
 * How to confine one command: the whole file system read-only, a private /tmp, fresh /dev and
 * /proc, the workspace writable (in workspace-write) except taskweave's folder and git's config,
 * hooks and pointers (sandbox-workspace-mounts); no network unless allowed, and then also no
 * /run, /var/run or $XDG_RUNTIME_DIR (local daemons' sockets) and none of the variables pointing
 * at them; no capabilities, a non-root user when taskweave is root, its own PID namespace and
 * session, and it dies with taskweave (sandbox-confinement); as root, no set-user-ID or
 * set-group-ID bit on any file (setuid-filter); without network, no unix socket
 * (unix-socket-filter), or with `unixSockets` unix sockets but every socket bound on the machine
 * covered by an empty file (sandbox-host-sockets; the sandbox's own network namespace has its own
 * abstract sockets and only a loopback). `env` is the environment the command would have had;
 * the launch's is what it gets.
 * bwrap is started in a process group of its own: a stop or timeout signals that group, bwrap
 * dies, and with it (`--die-with-parent`, the PID namespace) every process of the command.
 */
export function sandboxLaunch(options: {
  sandbox: Extract<CommandSandbox, { kind: 'bwrap' }>;
  workspaceRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): SandboxLaunch {
  const { sandbox, workspaceRoot } = options;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const hidden = sandbox.network ? [] : hiddenRuntimeFolders(options.env);
  args.push(...hiddenFolderArguments(hidden, options.env));
  // Binds come after the private /tmp and the hidden folders: a workspace under /tmp is mounted
  // back on top of it, and so is taskweave's own installation (read-only) when it lives there:
  // the packages it ships (which `taskweave eval`'s scenarios use) stay readable.
  for (const folder of ['/tmp', ...hidden]) {
    if (isUnder(packageRoot(), folder)) args.push('--ro-bind', packageRoot(), packageRoot());
  }
  args.push(sandbox.mode === 'workspace-write' ? '--bind' : '--ro-bind', workspaceRoot, workspaceRoot);
  if (sandbox.mode === 'workspace-write') args.push(...protectedWorkspaceArguments(workspaceRoot));
  if (!sandbox.network) args.push('--unshare-net');
  // Without network it may not reach a daemon over a unix socket on a path left visible: it may
  // make none, or (unixSockets) the paths of those bound on the machine are covered.
  const unixSockets = !sandbox.network && sandbox.unixSockets === true;
  if (unixSockets) {
    const boundBack = [workspaceRoot, packageRoot()];
    args.push(...coveredSocketArguments(hostSocketPaths({ hidden: ['/tmp', ...hidden], boundBack })));
  }
  // As root the command's files are root's outside: it may not make them set-user-ID programs.
  const seccomp = seccompConfinement({ network: sandbox.network, unixSockets });
  args.push(...CONFINEMENT_FLAGS, ...identityFlags(), ...seccomp.flags, '--chdir', options.cwd);
  const env = {
    ...withoutSocketVariables(options.env, sandbox.network ? [] : hidden, !sandbox.network),
    ...SANDBOX_ENV,
  };
  return { args, env, ...(seccomp.input === undefined ? {} : { input: seccomp.input }) };
}

function isUnder(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * Environment for a sandboxed command: caches that tools keep in the (read-only) home folder
 * go to the private /tmp instead, so that `npm install` with network allowed works.
 */
export const SANDBOX_ENV = {
  npm_config_cache: '/tmp/.npm-cache',
  XDG_CACHE_HOME: '/tmp/.cache',
};
