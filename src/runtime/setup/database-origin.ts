import { hostname, userInfo } from 'node:os';
import type { Store } from '../../store/ports.js';
import type { DatabaseOrigin } from '../../store/rows.js';

/**
 * A database that was not created for this workspace: copied or cloned here (a repository that
 * ships `.taskweave/taskweave.db`), or from a taskweave that recorded no origin and holding
 * queued work. The work queued in it is not run until the user makes it theirs.
 */
export interface ForeignDatabase {
  /** What the database says about where it was created; undefined when it says nothing. */
  recorded: DatabaseOrigin | undefined;
  /** The position in each queue up to which its tasks came with the database (they are left). */
  queuedBefore: ReadonlyMap<string, number>;
}

/** This process's workspace, host and user, as an origin row records them. */
export function originHere(workspaceRoot: string) {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = String(process.getuid?.() ?? 'unknown');
  }
  return { workspace: workspaceRoot, host: hostname(), user, createdAt: Date.now() };
}

/**
 * Checks where the workspace's database was created. A new database (or one from before origins
 * were recorded, with no queued work) is recorded as this workspace's; one recorded for another
 * folder, or an unrecorded one with queued work, is foreign (see ForeignDatabase). With `adopt`
 * (the user said so), a foreign database is recorded as this workspace's and its work runs.
 */
export async function checkDatabaseOrigin(
  store: Store,
  options: { workspaceRoot: string; adopt?: boolean },
): Promise<ForeignDatabase | undefined> {
  const recorded = await store.origin.get();
  if (recorded?.workspace === options.workspaceRoot) return undefined;
  const active = await store.tasks.listActive();
  if (options.adopt || (recorded === undefined && active.length === 0)) {
    // Settings stored on work that came from elsewhere were chosen by nobody here: dropped.
    if (options.adopt) await store.tasks.clearRunSettings();
    await store.origin.record(originHere(options.workspaceRoot));
    return undefined;
  }
  const queuedBefore = new Map<string, number>();
  for (const task of active)
    queuedBefore.set(task.queue, Math.max(queuedBefore.get(task.queue) ?? 0, task.sequence));
  return { recorded, queuedBefore };
}

/** Where a foreign database says it was created, for messages. */
export function describeOrigin(foreign: ForeignDatabase): string {
  const { recorded } = foreign;
  if (recorded === undefined) return 'it records no origin (it was made elsewhere, or by an older taskweave)';
  return `it was created for ${recorded.workspace} by ${recorded.user} on ${recorded.host}`;
}
