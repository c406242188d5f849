import { WRAPPER_INPUT_FD } from '../process/run-shell-command.js';
import { setuidFilter } from './setuid-filter.js';

/**
 * The bwrap flags that take a command's privileges away, for every sandboxed command and for the
 * probe that decides whether the sandbox can be had here at all:
 * - a user namespace (`--unshare-user`) with every capability dropped (`--cap-drop ALL`): as root
 *   the command cannot remount `/` read-write, mount anything or override file permissions;
 * - a PID namespace (`--unshare-pid`): taskweave and every other process are invisible, so
 *   `/proc/<pid>/root`, `/proc/<pid>/environ` and `/proc/<pid>/mem` lead nowhere; and everything
 *   the command started ends with it, background processes included;
 * - an IPC namespace (`--unshare-ipc`): no shared memory or message queues with the host;
 * - a new session (`--new-session`): no controlling terminal to push keystrokes into (TIOCSTI);
 * - `--die-with-parent`: when taskweave dies, even by `kill -9`, the sandbox and all in it die.
 */
export const CONFINEMENT_FLAGS: readonly string[] = [
  '--unshare-user',
  '--unshare-pid',
  '--unshare-ipc',
  '--cap-drop',
  'ALL',
  '--new-session',
  '--die-with-parent',
];

/**
 * The user id a command has inside the sandbox when taskweave runs as root: not root, so that tools
 * behave as for a user. It maps to root outside, so files it creates are owned by root, like
 * those taskweave writes itself.
 */
export const SANDBOX_UID_FOR_ROOT = 1000;

/** The flags that set the user inside the sandbox: a non-root one when taskweave is root, else the user's own. */
export function identityFlags(uid: number = process.getuid?.() ?? -1): string[] {
  if (uid !== 0) return [];
  return ['--uid', String(SANDBOX_UID_FOR_ROOT), '--gid', String(SANDBOX_UID_FOR_ROOT)];
}

/**
 * As root, the seccomp filter that keeps set-ID bits off every file (setuid-filter.ts) and the
 * flags that load it from WRAPPER_INPUT_FD; nothing for another user (the files a command makes
 * are that user's own) or on an architecture without a filter.
 */
export function setuidConfinement(uid: number = process.getuid?.() ?? -1): {
  flags: string[];
  input?: Buffer;
} {
  const filter = uid === 0 ? setuidFilter() : undefined;
  return filter === undefined
    ? { flags: [] }
    : { flags: ['--seccomp', String(WRAPPER_INPUT_FD)], input: filter };
}
