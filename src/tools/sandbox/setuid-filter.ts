/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` loads it) that refuses to give a
 * file the set-user-ID or set-group-ID bit. As root the sandboxed command's user maps to root
 * outside, so a program it marked set-user-ID would make any local user who runs it root; the
 * sandbox's own bind is `nosuid`, the host's folder is not. Every way a mode reaches the kernel
 * is checked: chmod and its variants, a file or folder created with a mode (open with O_CREAT or
 * O_TMPFILE, creat, mkdir, mknod); openat2 (its mode is in a struct a filter cannot read) and
 * io_uring (it opens files without these calls) answer ENOSYS, and programs fall back.
 * Syscalls of another ABI than the process's own (i386, x32) are refused: their numbers differ.
 */

/** seccomp_data: `nr` (int), `arch` (u32), `instruction_pointer` (u64), `args[6]` (u64 each). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** The low 32 bits of argument `index` (little-endian: x86-64 and arm64). */
const argOffset = (index: number): number => 16 + 8 * index;

const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_SET = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const JUMP_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff_0000;
const errno = (code: number): number => 0x0005_0000 | code;
const EPERM = 1;
const ENOSYS = 38;

/** S_ISUID | S_ISGID. */
const SET_ID_BITS = 0o6000;
/** O_CREAT | __O_TMPFILE: the only opens whose mode is used. */
const CREATING_FLAGS = 0o100 | 0o20000000;
/** x32 system calls carry this bit in their number on x86-64. */
const X32_SYSCALL_BIT = 0x4000_0000;

/** A system call that takes a mode: which argument holds it, and for open which holds the flags. */
type ModeRule = { nr: number; mode: number; flags?: number } | { nr: number; refuse: true };

interface SyscallTable {
  arch: number;
  rules: ModeRule[];
  x32: boolean;
}

const TABLES: Partial<Record<NodeJS.Architecture, SyscallTable>> = {
  x64: {
    arch: 0xc000_003e, // AUDIT_ARCH_X86_64
    x32: true,
    rules: [
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
      { nr: 437, refuse: true }, // openat2
      { nr: 425, refuse: true }, // io_uring_setup
    ],
  },
  arm64: {
    arch: 0xc000_00b7, // AUDIT_ARCH_AARCH64
    x32: false,
    rules: [
      { nr: 52, mode: 1 }, // fchmod
      { nr: 53, mode: 2 }, // fchmodat
      { nr: 452, mode: 2 }, // fchmodat2
      { nr: 56, flags: 2, mode: 3 }, // openat
      { nr: 34, mode: 2 }, // mkdirat
      { nr: 33, mode: 2 }, // mknodat
      { nr: 437, refuse: true }, // openat2
      { nr: 425, refuse: true }, // io_uring_setup
    ],
  },
};

type Instruction = [code: number, jumpTrue: number, jumpFalse: number, value: number];

/**
 * The filter for this machine's architecture, as the bytes of `struct sock_filter[]`; undefined
 * on an architecture it has no system call table for.
 */
export function setuidFilter(architecture: NodeJS.Architecture = process.arch): Buffer | undefined {
  const table = TABLES[architecture];
  if (table === undefined) return undefined;
  const blocks = table.rules.map(ruleBlock);
  const head: Instruction[] = [
    [LOAD_WORD, 0, 0, ARCH_OFFSET],
    [JUMP_EQUAL, 1, 0, table.arch],
    [RETURN, 0, 0, errno(ENOSYS)],
    [LOAD_WORD, 0, 0, NR_OFFSET],
  ];
  if (table.x32) head.push([JUMP_AT_LEAST, 0, 1, X32_SYSCALL_BIT], [RETURN, 0, 0, errno(ENOSYS)]);
  // One comparison per rule, jumping to its block; none matching allows the call.
  const dispatch: Instruction[] = [];
  let blockStart = table.rules.length + 1;
  for (const [index, rule] of table.rules.entries()) {
    const jump = blockStart - (index + 1);
    if (jump > 255) throw new Error('seccomp filter too long for a BPF jump');
    dispatch.push([JUMP_EQUAL, jump, 0, rule.nr]);
    blockStart += blocks[index]?.length ?? 0;
  }
  dispatch.push([RETURN, 0, 0, ALLOW]);
  return encode([...head, ...dispatch, ...blocks.flat()]);
}

/** The instructions that decide one system call: refuse it, or refuse a mode with a set-ID bit. */
function ruleBlock(rule: ModeRule): Instruction[] {
  if ('refuse' in rule) return [[RETURN, 0, 0, errno(ENOSYS)]];
  const checkMode: Instruction[] = [
    [LOAD_WORD, 0, 0, argOffset(rule.mode)],
    [JUMP_SET, 0, 1, SET_ID_BITS],
    [RETURN, 0, 0, errno(EPERM)],
    [RETURN, 0, 0, ALLOW],
  ];
  if (rule.flags === undefined) return checkMode;
  // An open that creates nothing ignores its mode (and may pass anything there).
  return [
    [LOAD_WORD, 0, 0, argOffset(rule.flags)],
    [JUMP_SET, 0, checkMode.length - 1, CREATING_FLAGS],
    ...checkMode,
  ];
}

/** `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`, in the machine's byte order (little-endian). */
function encode(program: Instruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  for (const [index, [code, jumpTrue, jumpFalse, value]] of program.entries()) {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jumpTrue, index * 8 + 2);
    bytes.writeUInt8(jumpFalse, index * 8 + 3);
    bytes.writeUInt32LE(value >>> 0, index * 8 + 4);
  }
  return bytes;
}
