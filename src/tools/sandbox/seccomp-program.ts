/**
 * A seccomp filter as classic BPF, the form bubblewrap's `--seccomp FD` loads: one rule per
 * system call, checked after the architecture. Syscalls of another ABI than the process's own
 * (i386, x32) are refused: their numbers differ, and the rules would not see them.
 */

/** seccomp_data: `nr` (int), `arch` (u32), `instruction_pointer` (u64), `args[6]` (u64 each). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** The low 32 bits of argument `index` (little-endian: x86-64 and arm64). */
const argOffset = (index: number): number => 16 + 8 * index;

const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const AND = 0x54; // BPF_ALU | BPF_AND | BPF_K
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_SET = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const JUMP_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff_0000;
const errno = (code: number): number => 0x0005_0000 | code;
export const EPERM = 1;
export const ENOSYS = 38;

/** x32 system calls carry this bit in their number on x86-64. */
const X32_SYSCALL_BIT = 0x4000_0000;

/** S_ISUID | S_ISGID. */
const SET_ID_BITS = 0o6000;
/** O_CREAT | __O_TMPFILE: the only opens whose mode is used. */
const CREATING_FLAGS = 0o100 | 0o20000000;

/** What one rule does with its system call. */
export type SyscallRule =
  /** Refuse a mode with a set-ID bit in argument `mode`; for open, only when `flags` create a file. */
  | { nr: number; mode: number; flags?: number }
  /** Refuse the call outright with `errno`. */
  | { nr: number; refuse: number }
  /**
   * Refuse with EPERM when argument `arg` equals `value` (a socket's domain); with `type`, only
   * when argument `type.arg`'s low bits (`& type.mask`) are `type.value` too.
   */
  | { nr: number; arg: number; value: number; type?: { arg: number; mask: number; value: number } };

/** The rules of one architecture. */
export interface SyscallTable {
  arch: number;
  x32: boolean;
  rules: SyscallRule[];
}

type Instruction = [code: number, jumpTrue: number, jumpFalse: number, value: number];

/** The filter for a table, as the bytes of `struct sock_filter[]`. */
export function seccompProgram(table: SyscallTable): Buffer {
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

/** The instructions that decide one system call. */
function ruleBlock(rule: SyscallRule): Instruction[] {
  if ('refuse' in rule) return [[RETURN, 0, 0, errno(rule.refuse)]];
  if ('arg' in rule) return argumentBlock(rule);
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

function argumentBlock(rule: Extract<SyscallRule, { arg: number }>): Instruction[] {
  const refuse: Instruction = [RETURN, 0, 0, errno(EPERM)];
  const allow: Instruction = [RETURN, 0, 0, ALLOW];
  if (rule.type === undefined)
    return [[LOAD_WORD, 0, 0, argOffset(rule.arg)], [JUMP_EQUAL, 0, 1, rule.value], refuse, allow];
  return [
    [LOAD_WORD, 0, 0, argOffset(rule.arg)],
    [JUMP_EQUAL, 0, 4, rule.value],
    [LOAD_WORD, 0, 0, argOffset(rule.type.arg)],
    [AND, 0, 0, rule.type.mask],
    [JUMP_EQUAL, 0, 1, rule.type.value],
    refuse,
    allow,
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
