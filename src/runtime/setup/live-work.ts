import type { Store } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { mayBeAlive } from './worker-identity.js';

/**
 * The goal under way in the workspace at `root`, if any: a task in progress, of a session of this
 * workspace, whose worker may still be at work (see mayBeAlive). A restore of files never runs
 * while there is one, forced or not: it would put files back under a running command.
 */
export async function liveWorkIn(store: Store, root: string): Promise<Task | undefined> {
  const now = Date.now();
  for (const task of await store.tasks.listAll({ status: 'in_progress' })) {
    if (task.sessionId === null || !mayBeAlive(task.leaseOwner, task.leaseExpiresAt, now)) continue;
    const session = await store.sessions.getSession(task.sessionId);
    if (session?.workspace === root) return task;
  }
  return undefined;
}
