import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

const WORKER_PREFIX = 'worker';

/** A worker id, unique per process: `worker:<host>:<pid>:<random>`. */
export function newWorkerId(): string {
  return [WORKER_PREFIX, hostname(), process.pid, randomUUID().slice(0, 8)].join(':');
}

/**
 * Whether a lease owner is a worker process of this machine that no longer exists: its task can
 * be taken over at once instead of waiting for the lease to expire (a `kill -9` leaves a live lease).
 */
export function isDeadLocalWorker(owner: string | null): boolean {
  if (owner === null) return true;
  const [prefix, host, pid] = owner.split(':');
  if (prefix !== WORKER_PREFIX || host !== hostname() || pid === undefined) return false;
  try {
    process.kill(Number(pid), 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return isZombie(Number(pid));
}

/** A killed process whose parent has not reaped it yet still answers signal 0 (Linux: state Z). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
