import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable that marks every process a command starts. Children inherit it
 * whatever they do with process groups and sessions (`setsid`, double forks, daemons), so the
 * processes of a command can be found through /proc even after they left its process group or
 * were reparented, and even by a later taskweave process after this one was killed.
 */
export const COMMAND_MARK_ENV = 'TASKWEAVE_COMMAND_ID';

/** A fresh mark for one command. */
export function newCommandMark(): string {
  return randomUUID();
}

/**
 * The processes (of this user: others' environments cannot be read) whose environment carries
 * `mark`. Linux only (/proc); elsewhere none are found and process groups are all there is.
 */
export function markedProcesses(mark: string): number[] {
  const needle = Buffer.from(`\0${COMMAND_MARK_ENV}=${mark}\0`);
  const first = needle.subarray(1);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // gone meanwhile, or another user's
    }
    if (environ.includes(needle) || environ.subarray(0, first.length).equals(first)) found.push(pid);
  }
  return found;
}

/**
 * Resolves once no live process carries `mark` (an exited one waiting to be reaped does not
 * count: its environment is gone), or after `withinMs` with whether they were all gone.
 */
export async function markedGone(mark: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (markedProcesses(mark).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, MARKED_POLL_MS));
  }
}

/** How often markedGone looks at /proc again. */
const MARKED_POLL_MS = 25;

/** Sends `signal` to every process carrying `mark`; returns how many it reached. */
export function signalMarked(mark: string, signal: NodeJS.Signals): number {
  let reached = 0;
  for (const pid of markedProcesses(mark)) {
    try {
      process.kill(pid, signal);
      reached += 1;
    } catch {
      // ESRCH: it ended meanwhile.
    }
  }
  return reached;
}
