import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

const WORKER_PREFIX = 'worker';

/**
 * The variable in the environment of every process a worker starts (git, the commands of its
 * runs): the worker process's pid. A worker killed with `kill -9` leaves its children running;
 * whoever takes its tasks over finds them by it (endGitLeftBy).
 */
export const WORKER_PID_VARIABLE = 'TASKWEAVE_WORKER_PID';

/**
 * A worker id, unique per process: `worker:<host>:<pid>:<random>`. The processes this one
 * starts from now on carry its pid (WORKER_PID_VARIABLE).
 */
export function newWorkerId(): string {
  process.env[WORKER_PID_VARIABLE] = String(process.pid);
  return [WORKER_PREFIX, hostname(), process.pid, randomUUID().slice(0, 8)].join(':');
}

/** The pid of a worker of this machine named by a lease owner; undefined for another machine's. */
export function localWorkerPid(owner: string | null): number | undefined {
  if (owner === null) return undefined;
  const [prefix, host, pid] = owner.split(':');
  if (prefix !== WORKER_PREFIX || host !== hostname() || pid === undefined) return undefined;
  const number = Number(pid);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/** How long git commands a dead worker left get to end after SIGTERM before SIGKILL. */
const GIT_END_GRACE_MS = 5_000;

/**
 * Ends the git commands a dead worker of this machine left running, and resolves once they are
 * gone: a worker killed with `kill -9` takes only itself, and its `git push`, `merge` or
 * `worktree add` would otherwise go on in the clone and worktrees while the worker taking its
 * task over works there (a lock held, a branch moved under it). SIGTERM first: git removes the
 * lock files it holds as it ends. Found by WORKER_PID_VARIABLE in /proc (Linux; elsewhere
 * there is nothing to read and the lease's expiry is the only wait). Returns how many there were.
 */
export async function endGitLeftBy(pid: number): Promise<number> {
  let left = await gitStartedBy(pid);
  const count = left.length;
  for (const child of left) signal(child, 'SIGTERM');
  const deadline = Date.now() + GIT_END_GRACE_MS;
  while (left.length > 0) {
    if (Date.now() >= deadline) for (const child of left) signal(child, 'SIGKILL');
    await sleep(20);
    left = await gitStartedBy(pid);
  }
  return count;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** Live git processes (not zombies) whose environment says worker `pid` started them. */
async function gitStartedBy(pid: number): Promise<number[]> {
  const marker = `${WORKER_PID_VARIABLE}=${pid}`;
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid || Number(entry) === pid) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (!comm.startsWith('git')) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(marker) && !isZombie(Number(entry))) found.push(Number(entry));
  }
  return found;
}

/**
 * Whether a lease owner is a worker process of this machine that no longer exists: its task can
 * be taken over at once instead of waiting for the lease to expire (a `kill -9` leaves a live lease).
 */
export function isDeadLocalWorker(owner: string | null): boolean {
  if (owner === null) return true;
  const pid = localWorkerPid(owner);
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return isZombie(pid);
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
