import { ENOSYS, type SyscallRule } from './seccomp-program.js';

/**
 * The seccomp rules (seccomp-program.ts) that refuse to give a file the set-user-ID or
 * set-group-ID bit. As root the sandboxed command's user maps to root outside, so a program it
 * marked set-user-ID would make any local user who runs it root; the sandbox's own bind is
 * `nosuid`, the host's folder is not. Every way a mode reaches the kernel is checked: chmod and
 * its variants, a file or folder created with a mode (open with O_CREAT or O_TMPFILE, creat,
 * mkdir, mknod); openat2 (its mode is in a struct a filter cannot read) and io_uring (it opens
 * files without these calls) answer ENOSYS, and programs fall back.
 */
export const SETUID_RULES: Partial<Record<NodeJS.Architecture, SyscallRule[]>> = {
  x64: [
    { nr: 90, mode: 1 }, // chmod
    { nr: 91, mode: 1 }, // fchmod
    { nr: 268, mode: 2 }, // fchmodat
    { nr: 452, mode: 2 }, // fchmodat2
    { nr: 2, flags: 1, mode: 2 }, // open
    { nr: 257, flags: 2, mode: 3 }, // openat
    { nr: 85, mode: 1 }, // creat
    { nr: 83, mode: 1 }, // mkdir
    { nr: 258, mode: 2 }, // mkdirat
    { nr: 133, mode: 1 }, // mknod
    { nr: 259, mode: 2 }, // mknodat
    { nr: 437, refuse: ENOSYS }, // openat2
    { nr: 425, refuse: ENOSYS }, // io_uring_setup
  ],
  arm64: [
    { nr: 52, mode: 1 }, // fchmod
    { nr: 53, mode: 2 }, // fchmodat
    { nr: 452, mode: 2 }, // fchmodat2
    { nr: 56, flags: 2, mode: 3 }, // openat
    { nr: 34, mode: 2 }, // mkdirat
    { nr: 33, mode: 2 }, // mknodat
    { nr: 437, refuse: ENOSYS }, // openat2
    { nr: 425, refuse: ENOSYS }, // io_uring_setup
  ],
};
