import { readFileSync } from 'node:fs';

/**
 * Whether the process with this id on this machine has ended: it does not exist, or it was
 * killed and only its zombie is left (Linux state Z, not yet reaped by its parent).
 */
export function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
