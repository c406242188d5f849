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

/**
 * Whether a lease owner may still be at work: a worker of this machine whose process exists
 * (whatever its lease says: a paused process can go on), or one of another machine whose lease
 * has not expired.
 */
export function mayBeAlive(owner: string | null, leaseExpiresAt: number | null, now = Date.now()): boolean {
  if (owner === null) return false;
  const [prefix, host] = owner.split(':');
  if (prefix === WORKER_PREFIX && host === hostname()) return !isDeadLocalWorker(owner);
  return (leaseExpiresAt ?? 0) > now;
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
