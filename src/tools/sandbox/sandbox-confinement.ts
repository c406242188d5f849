import { WRAPPER_INPUT_FD } from '../process/run-shell-command.js';
import { type SyscallRule, seccompProgram } from './seccomp-program.js';
import { SETUID_RULES } from './setuid-filter.js';
import { UNIX_SOCKET_RULES } from './unix-socket-filter.js';

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

/** The audit architecture of each machine type a filter exists for, and whether it has the x32 ABI. */
const ARCHITECTURES: Partial<Record<NodeJS.Architecture, { arch: number; x32: boolean }>> = {
  x64: { arch: 0xc000_003e, x32: true }, // AUDIT_ARCH_X86_64
  arm64: { arch: 0xc000_00b7, x32: false }, // AUDIT_ARCH_AARCH64
};

/**
 * The seccomp filter of a sandboxed command and the flags that load it from WRAPPER_INPUT_FD:
 * as root, no set-ID bit on any file (setuid-filter.ts); with the network off, no unix socket
 * (unix-socket-filter.ts) unless `unixSockets` allows them (the host's are covered instead, in
 * sandbox.ts). Nothing when neither applies, or on an architecture without rules.
 */
export function seccompConfinement(options: {
  network: boolean;
  unixSockets?: boolean;
  uid?: number;
  architecture?: NodeJS.Architecture;
}): { flags: string[]; input?: Buffer } {
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const architecture = options.architecture ?? process.arch;
  const machine = ARCHITECTURES[architecture];
  const rules: SyscallRule[] = [
    ...(uid === 0 ? (SETUID_RULES[architecture] ?? []) : []),
    ...(options.network || options.unixSockets === true ? [] : (UNIX_SOCKET_RULES[architecture] ?? [])),
  ];
  // One rule per system call: the first wins (io_uring_setup is in both sets, refused alike).
  const unique = rules.filter((rule, index) => rules.findIndex((other) => other.nr === rule.nr) === index);
  if (machine === undefined || unique.length === 0) return { flags: [] };
  return {
    flags: ['--seccomp', String(WRAPPER_INPUT_FD)],
    input: seccompProgram({ ...machine, rules: unique }),
  };
}
