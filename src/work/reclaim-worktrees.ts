import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { goalBranch, refPart } from './goal-branch.js';
import { IDLE_FOLDER, IdleWorktrees } from './idle-worktrees.js';
import { findRepository } from './repository.js';
import { gitCommonDir, listWorktrees, worktreesIn } from './worktree.js';
import { WorktreePool } from './worktree-pool.js';
import type { WorktreeSetup } from './worktree-setup.js';
import type { WorktreesAhead } from './worktrees-ahead.js';

/**
 * The goals that have a folder of worktrees in the repository the workspace is in (their folder
 * names: a goal id as its branch writes it), the idle worktrees' folder left out; none outside a
 * repository.
 */
export async function goalsWithWorktrees(workspaceRoot: string): Promise<string[]> {
  const repository = await findRepository(workspaceRoot);
  if (!repository) return [];
  const folder = worktreesIn(await gitCommonDir(repository.top));
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((name) => name !== IDLE_FOLDER && !name.startsWith('.')).sort();
}

/**
 * Ends what is left of a goal nobody will continue (its process was killed and the goal was then
 * cancelled, or finished elsewhere): its worktrees go idle for the repository's next goals, clean,
 * up to `idleBound`, the rest removed; its branches stay. Returns how many worktrees it had.
 */
export async function reclaimGoalWorktrees(options: {
  workspaceRoot: string;
  goalId: string;
  setup: WorktreeSetup;
  ahead: WorktreesAhead;
  idleBound: number;
}): Promise<number> {
  const repository = await findRepository(options.workspaceRoot);
  if (!repository) return 0;
  const worktrees = worktreesIn(await gitCommonDir(repository.top));
  const folder = path.join(worktrees, refPart(options.goalId));
  const had = (await listWorktrees(repository.top)).filter((entry) =>
    entry.path.startsWith(`${folder}${path.sep}`),
  ).length;
  const pool = new WorktreePool({
    top: repository.top,
    folder,
    goalRef: `refs/heads/${goalBranch(options.goalId)}`,
    keep: [...options.setup.share, ...options.setup.copy].map((name) => `${repository.prefix}${name}`),
    keepIgnored: options.setup.setup !== undefined,
    ahead: options.ahead,
    idle: new IdleWorktrees(repository.top, path.join(worktrees, IDLE_FOLDER)),
    idleBound: Math.max(1, options.idleBound),
  });
  await pool.removeAll();
  return had;
}
