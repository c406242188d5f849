import { ENOSYS, type SyscallRule } from './seccomp-program.js';

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** The socket type without SOCK_NONBLOCK and SOCK_CLOEXEC. */
const SOCK_TYPE_MASK = 0xf;

/**
 * The seccomp rules (seccomp-program.ts) that keep a command without network from reaching a
 * daemon over a unix socket on a path the sandbox still shows (`~/.gnupg/S.gpg-agent`, a socket
 * under `/var/lib`): a filter cannot read the path behind `connect`'s pointer, so no unix socket
 * can be made at all — `socket(AF_UNIX, …)` fails with EPERM. `socketpair` stays (libuv, Node's
 * child processes, Python's subprocesses talk to their children over it): its two ends are
 * connected to each other, except a datagram pair, whose ends can send to any path — refused
 * too. io_uring answers ENOSYS (it makes sockets without these calls), and programs fall back.
 */
export const UNIX_SOCKET_RULES: Partial<Record<NodeJS.Architecture, SyscallRule[]>> = {
  x64: [
    { nr: 41, arg: 0, value: AF_UNIX }, // socket
    { nr: 53, arg: 0, value: AF_UNIX, type: { arg: 1, mask: SOCK_TYPE_MASK, value: SOCK_DGRAM } }, // socketpair
    { nr: 425, refuse: ENOSYS }, // io_uring_setup
  ],
  arm64: [
    { nr: 198, arg: 0, value: AF_UNIX }, // socket
    { nr: 199, arg: 0, value: AF_UNIX, type: { arg: 1, mask: SOCK_TYPE_MASK, value: SOCK_DGRAM } }, // socketpair
    { nr: 425, refuse: ENOSYS }, // io_uring_setup
  ],
};
