import { rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { git, gitOutcome } from './git.js';
import { commitIdentity } from './goal-branch.js';

/**
 * Where task worktrees go: inside the repository's git folder, `<git-common-dir>/taskweave/
 * worktrees/<goal>/<task>`. Not in the checkout (`.taskweave/worktrees/`): there the user's own
 * tools (tsc, vitest, eslint, an editor's search) would find every file a second time per
 * task; nothing walks into `.git`, git never tracks it, and it goes with the repository.
 */
export async function worktreesFolder(top: string): Promise<string> {
  const common = (await git(['rev-parse', '--git-common-dir'], { cwd: top })).toString('utf8').trim();
  return path.join(path.resolve(top, common), 'taskweave', 'worktrees');
}

/**
 * Worktree bookkeeping (add, remove, prune) one at a time per repository in this process: git
 * writes a new worktree's folder under `.git/worktrees/` in several steps, and a `prune` or
 * `list` of a parallel task reading it half-written fails ("failed to read …/commondir") or
 * removes it.
 */
const adminQueues = new Map<string, Promise<unknown>>();

function inTurn<T>(top: string, work: () => Promise<T>): Promise<T> {
  const run = (adminQueues.get(top) ?? Promise.resolve()).then(work);
  adminQueues.set(
    top,
    run.catch(() => {}),
  );
  return run;
}

/** One worktree git knows of. */
export interface WorktreeEntry {
  path: string;
  /** `refs/heads/…`, or undefined when detached. */
  branch?: string;
  head?: string;
  locked: boolean;
  /** git's own word: its folder is gone. */
  prunable: boolean;
}

/** The worktrees of a repository (`git worktree list --porcelain`), the main one first. */
export async function listWorktrees(top: string): Promise<WorktreeEntry[]> {
  const printed = (await git(['worktree', 'list', '--porcelain'], { cwd: top })).toString('utf8');
  const entries: WorktreeEntry[] = [];
  for (const block of printed.split('\n\n')) {
    const lines = block.split('\n').filter((line) => line !== '');
    const first = lines[0];
    if (!first?.startsWith('worktree ')) continue;
    const entry: WorktreeEntry = { path: first.slice('worktree '.length), locked: false, prunable: false };
    for (const line of lines.slice(1)) {
      if (line.startsWith('branch ')) entry.branch = line.slice('branch '.length);
      else if (line.startsWith('HEAD ')) entry.head = line.slice('HEAD '.length);
      else if (line === 'locked' || line.startsWith('locked ')) entry.locked = true;
      else if (line === 'prunable' || line.startsWith('prunable ')) entry.prunable = true;
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * Takes away the worktree at `folder` whatever state a killed process left it in: a lock
 * (`git worktree add` locks while it populates), a stale `index.lock`, a folder git no longer
 * knows or a registration whose folder is gone. Its branch stays.
 */
export function removeWorktree(top: string, folder: string): Promise<void> {
  return inTurn(top, () => removeNow(top, folder));
}

async function removeNow(top: string, folder: string): Promise<void> {
  const known = (await listWorktrees(top)).find((entry) => entry.path === folder);
  if (known) {
    if (known.locked) await gitOutcome(['worktree', 'unlock', folder], { cwd: top });
    await gitOutcome(['worktree', 'remove', '--force', '--force', folder], { cwd: top });
  }
  await rm(folder, { recursive: true, force: true });
  // Only when git still lists it (its folder is gone now): prune forgets it.
  if ((await listWorktrees(top)).some((entry) => entry.path === folder))
    await git(['worktree', 'prune'], { cwd: top });
}

/** Whether `folder` is a worktree on `branch` git can use now (not half made by a killed process). */
async function usableWorktree(top: string, folder: string, branch: string): Promise<boolean> {
  const known = (await listWorktrees(top)).find((entry) => entry.path === folder);
  if (!known || known.locked || known.branch !== `refs/heads/${branch}`) return false;
  try {
    await stat(path.join(folder, '.git'));
  } catch {
    return false;
  }
  const said = await gitOutcome(['rev-parse', '--git-dir'], { cwd: folder });
  if (said.code !== 0) return false;
  const gitDir = path.resolve(folder, said.stdout.trim());
  // A commit or add killed half-way leaves its index lock: no one else works in this worktree.
  await unlink(path.join(gitDir, 'index.lock')).catch(() => {});
  // No index: killed before its files were checked out (see ensureWorktree).
  if (!(await stat(path.join(gitDir, 'index')).catch(() => undefined))) return false;
  const status = await gitOutcome(['status', '--porcelain'], { cwd: folder });
  return status.code === 0;
}

/**
 * The worktree of a task on `branch`: created at `start` when `fresh` (a first run or a retry:
 * any earlier worktree and the branch's earlier commits are replaced), else the one already
 * there when usable (a task continued after a crash), or one made again on the branch as it
 * is (a half-made worktree). Returns whether it was made now.
 */
export async function ensureWorktree(options: {
  top: string;
  folder: string;
  branch: string;
  start: string;
  fresh: boolean;
}): Promise<{ created: boolean }> {
  const made = await inTurn(options.top, () => ensureNow(options));
  // The files are checked out outside the turn: writing thousands of files is the slow part,
  // and it touches only this worktree (git's bookkeeping of the others is not read).
  if (made.created) await git(['reset', '--hard', '--quiet'], { cwd: options.folder });
  return made;
}

async function ensureNow(options: {
  top: string;
  folder: string;
  branch: string;
  start: string;
  fresh: boolean;
}): Promise<{ created: boolean }> {
  const { top, folder, branch } = options;
  if (!options.fresh && (await usableWorktree(top, folder, branch))) return { created: false };
  await removeNow(top, folder);
  const branchExists =
    (await gitOutcome(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: top })).code === 0;
  const args =
    options.fresh || !branchExists
      ? ['worktree', 'add', '--quiet', '--force', '--no-checkout', '-B', branch, folder, options.start]
      : ['worktree', 'add', '--quiet', '--force', '--no-checkout', folder, branch];
  await git(args, { cwd: top });
  return { created: true };
}

/**
 * Commits everything changed in a worktree on its branch (one commit: a task's checkpoint),
 * leaving out `exclude` (links and copies taskweave put there). Returns the commit, or
 * undefined when nothing changed.
 */
export async function commitWorktree(options: {
  folder: string;
  message: string;
  exclude?: readonly string[];
}): Promise<string | undefined> {
  const { folder } = options;
  const excluded: string[] = [];
  // Only those git would add: naming an ignored path in a pathspec makes `git add` fail. A link
  // named `node_modules` is not matched by `node_modules/` (a link is no folder to git).
  for (const name of options.exclude ?? []) {
    const ignored = await gitOutcome(['check-ignore', '-q', '--', name], { cwd: folder });
    if (ignored.code !== 0) excluded.push(`:(exclude,top,literal)${name}`);
  }
  await git(['add', '-A', '--', ':(top)', ...excluded], { cwd: folder });
  const changed = await gitOutcome(['diff', '--cached', '--quiet'], { cwd: folder });
  if (changed.code === 0) return undefined;
  await git(['commit', '--quiet', '--no-verify', '-m', options.message], {
    cwd: folder,
    env: await commitIdentity(folder),
  });
  return (await git(['rev-parse', 'HEAD'], { cwd: folder })).toString('utf8').trim();
}
