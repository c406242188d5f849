import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxMode } from './sandbox-modes.js';
import { TASKWEAVE_FOLDER } from './workspace.js';

/**
 * How run_command runs its commands: under bubblewrap (`bwrap` is the program found), or
 * unconfined (`--sandbox off`, or bubblewrap is not usable here).
 */
export type CommandSandbox =
  | { kind: 'bwrap'; bwrap: string; mode: Exclude<SandboxMode, 'off'>; network: boolean }
  | { kind: 'none' };

/**
 * Paths inside the workspace that stay read-only in `workspace-write`: taskweave's own data, and
 * what git runs or reads on the user's behalf later (hooks, and the config that can point
 * `core.hooksPath` anywhere).
 */
export const READ_ONLY_IN_WORKSPACE = [TASKWEAVE_FOLDER, '.git/hooks', '.git/config'];

/** taskweave's own installation (`src/tools/` or `dist/tools/` is two folders down). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The bwrap arguments (before `--`) that confine one command: the whole file system read-only,
 * a private /tmp, fresh /dev and /proc, the workspace writable (in workspace-write) except
 * READ_ONLY_IN_WORKSPACE, no network unless allowed, and the sandbox dies with taskweave.
 * No new session or PID namespace: the command stays in taskweave's process group, so a stop
 * or timeout kills it and everything it started, as without the sandbox.
 */
export function bwrapArguments(options: {
  sandbox: Extract<CommandSandbox, { kind: 'bwrap' }>;
  workspaceRoot: string;
  cwd: string;
}): string[] {
  const { sandbox, workspaceRoot } = options;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Binds come after the private /tmp: a workspace under /tmp is mounted back on top of it, and
  // so is taskweave's own installation (read-only) when it lives there: the packages it ships
  // (which `taskweave eval`'s scenarios use) stay readable, as they are from anywhere else.
  if (isUnder(PACKAGE_ROOT, '/tmp')) args.push('--ro-bind', PACKAGE_ROOT, PACKAGE_ROOT);
  args.push(sandbox.mode === 'workspace-write' ? '--bind' : '--ro-bind', workspaceRoot, workspaceRoot);
  if (sandbox.mode === 'workspace-write') {
    for (const relative of READ_ONLY_IN_WORKSPACE) {
      const absolute = path.join(workspaceRoot, relative);
      if (existsSync(absolute)) args.push('--ro-bind', absolute, absolute);
    }
  }
  if (!sandbox.network) args.push('--unshare-net');
  args.push('--die-with-parent', '--chdir', options.cwd);
  return args;
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
