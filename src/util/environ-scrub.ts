import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * /proc/self/stat's fields 50 and 51 (1-based): where the environment block the process was
 * started with lies in its memory. The fields after the command name (which ends with the last
 * `)`) start at field 3.
 */
const ENV_START_FIELD = 50;
const FIRST_FIELD_AFTER_NAME = 3;

/**
 * Overwrites the values of the named variables in the process's original environment block, the
 * memory that /proc/<pid>/environ shows to every process of the same user (a command the agent
 * runs can read /proc/$PPID/environ). Deleting from process.env does not change that block.
 * Only values are zeroed (`NAME=` stays); the block is written through /proc/self/mem. Linux
 * only: elsewhere, or when the kernel refuses, it changes nothing and says so (false).
 */
export function scrubOriginalEnvironment(names: readonly string[]): boolean {
  if (process.platform !== 'linux' || names.length === 0) return names.length === 0;
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[ENV_START_FIELD - FIRST_FIELD_AFTER_NAME]);
    const end = Number(fields[ENV_START_FIELD + 1 - FIRST_FIELD_AFTER_NAME]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return false;
    fd = openSync('/proc/self/mem', 'r+');
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    let offset = 0;
    while (offset < block.length) {
      let entryEnd = block.indexOf(0, offset);
      if (entryEnd === -1) entryEnd = block.length;
      const entry = block.subarray(offset, entryEnd);
      const equals = entry.indexOf(0x3d);
      if (equals > 0 && names.includes(entry.subarray(0, equals).toString('utf8'))) {
        const length = entry.length - equals - 1;
        if (length > 0) writeSync(fd, Buffer.alloc(length), 0, length, start + offset + equals + 1);
      }
      offset = entryEnd + 1;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
