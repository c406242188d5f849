import { lstat, mkdtemp, rm, rmdir, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { filesInTheWay } from './files-in-the-way.js';
import { git, gitOutcome } from './git.js';
import { commitOf, goalBase, goalBranch } from './goal-branch.js';
import { findRepository } from './repository.js';

/** How a goal's change reached (or did not reach) the user's working tree. */
export type LandOutcome =
  | {
      kind: 'applied';
      branch: string;
      /** The files written or removed, relative to the repository's top. */
      files: string[];
      added: number;
      removed: number;
    }
  /**
   * Nothing was touched: `held` are the files the user changed too since the goal's base (or
   * that are in the way: untracked, ignored, a folder where the goal writes a file).
   */
  | { kind: 'held'; branch: string; held: string[] };

/**
 * Lands a completed goal's change in the user's working tree, uncommitted, as a run without a
 * plan would have left it: the change from the goal's base (the files as they were on disk when
 * it started) to its branch's tip, three-way. A file the goal changed that the user left as it
 * was at the base is written (or removed); one the user changed the same way already is left; one
 * both changed (or an untracked or ignored file in the way: filesInTheWay, the rule `apply`
 * keeps) holds the whole change back and nothing is touched: half a change never lands. The
 * user's index, HEAD and branches are never touched (the files are written through a
 * throw-away index).
 */
export async function landGoal(workspaceRoot: string, goalId: string): Promise<LandOutcome> {
  const repository = await findRepository(workspaceRoot);
  if (!repository) throw new Error(`${workspaceRoot} is not in a git repository.`);
  const { top } = repository;
  const branch = goalBranch(goalId);
  const tip = await commitOf(top, `refs/heads/${branch}`);
  if (!tip) throw new Error(`The goal ${goalId} has no branch ${branch}.`);
  const base = await goalBase(top, branch);
  const changes = await changesOf(top, base, tip);
  const inTheWay = await filesInTheWay({ top, head: base, tree: tip });
  const held = [...(await alreadyThere(top, tip, inTheWay, false)), ...(await goneMeanwhile(top, changes))];
  if (held.length > 0) return { kind: 'held', branch, held: [...new Set(held)].sort() };
  const done = new Set(await alreadyThere(top, tip, inTheWay, true));
  const toWrite = changes.filter((change) => change.status !== 'D' && !done.has(change.path));
  const toRemove = changes.filter((change) => change.status === 'D');
  await writeFromCommit(
    top,
    tip,
    toWrite.map((change) => change.path),
  );
  for (const change of toRemove) await removeFile(top, change.path);
  return {
    kind: 'applied',
    branch,
    files: changes.map((change) => change.path),
    added: changes.reduce((sum, change) => sum + change.added, 0),
    removed: changes.reduce((sum, change) => sum + change.removed, 0),
  };
}

/** What a goal changed from its base to its branch's tip: the files, lines added and removed. */
export async function goalChange(
  workspaceRoot: string,
  goalId: string,
): Promise<{ branch: string; files: string[]; added: number; removed: number }> {
  const repository = await findRepository(workspaceRoot);
  if (!repository) throw new Error(`${workspaceRoot} is not in a git repository.`);
  const branch = goalBranch(goalId);
  const changes = await changesOf(
    repository.top,
    await goalBase(repository.top, branch),
    `refs/heads/${branch}`,
  );
  return {
    branch,
    files: changes.map((change) => change.path),
    added: changes.reduce((sum, change) => sum + change.added, 0),
    removed: changes.reduce((sum, change) => sum + change.removed, 0),
  };
}

/** One file the goal changed: its status (A, M, D, T) and its lines added and removed (0 for a binary file). */
interface Change {
  path: string;
  status: string;
  added: number;
  removed: number;
}

async function changesOf(top: string, base: string, tip: string): Promise<Change[]> {
  const range = ['--no-renames', '--no-ext-diff', '-z', base, tip];
  const [statuses, counts] = await Promise.all([
    git(['diff', '--name-status', ...range], { cwd: top }),
    git(['diff', '--numstat', ...range], { cwd: top }),
  ]);
  const status = new Map<string, string>();
  const named = statuses.toString('utf8').split('\0');
  for (let index = 0; index + 1 < named.length; index += 2)
    status.set(named[index + 1] ?? '', (named[index] ?? '').slice(0, 1));
  const changes: Change[] = [];
  // `added\tremoved\tpath\0`, `-` for a binary file.
  for (const entry of counts.toString('utf8').split('\0')) {
    const [added = '', removed = '', file] = entry.split('\t');
    if (file === undefined || file === '') continue;
    changes.push({
      path: file,
      status: status.get(file) ?? 'M',
      added: Number(added) || 0,
      removed: Number(removed) || 0,
    });
  }
  return changes;
}

/**
 * Of the files in the way, those whose content on disk is already the goal's (`same`), or those
 * that are not (`!same`): a file the user changed the same way as the goal loses nothing.
 */
async function alreadyThere(top: string, tip: string, files: string[], same: boolean): Promise<string[]> {
  if (files.length === 0) return [];
  const listed = (await git(['ls-tree', '-z', tip, '--', ...files], { cwd: top })).toString('utf8');
  const blobs = new Map<string, string>();
  for (const entry of listed.split('\0')) {
    const match = /^(\d+) blob (\S+)\t(.+)$/s.exec(entry);
    if (match?.[1] && match[2] && match[3] && match[1] !== '120000') blobs.set(match[3], match[2]);
  }
  const hashable = files.filter((file) => blobs.has(file));
  const hashed = new Map<string, string>();
  if (hashable.length > 0) {
    const printed = await gitOutcome(['hash-object', '--stdin-paths'], {
      cwd: top,
      input: `${hashable.join('\n')}\n`,
    });
    if (printed.code === 0)
      for (const [index, hash] of printed.stdout.split('\n').entries())
        hashed.set(hashable[index] ?? '', hash);
  }
  return files.filter((file) => (hashed.get(file) === blobs.get(file)) === same);
}

/** Files the goal changed (kept, not removed) that the user removed meanwhile: both changed. */
async function goneMeanwhile(top: string, changes: Change[]): Promise<string[]> {
  const gone: string[] = [];
  for (const change of changes) {
    if (change.status !== 'M' && change.status !== 'T') continue;
    if (!(await lstat(path.join(top, change.path)).catch(() => undefined))) gone.push(change.path);
  }
  return gone;
}

/** Writes `files` as the commit has them into the working tree, through a throw-away index. */
async function writeFromCommit(top: string, commit: string, files: string[]): Promise<void> {
  if (files.length === 0) return;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'taskweave-land-'));
  const env = { GIT_INDEX_FILE: path.join(folder, 'index') };
  try {
    await git(['read-tree', commit], { cwd: top, env });
    await git(['checkout-index', '--force', '-z', '--stdin'], {
      cwd: top,
      env,
      input: `${files.join('\0')}\0`,
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Removes a file the goal removed, and the folders it leaves empty. */
async function removeFile(top: string, file: string): Promise<void> {
  await unlink(path.join(top, file)).catch(() => {});
  let folder = path.dirname(file);
  while (folder !== '.' && folder !== '') {
    if (
      !(await rmdir(path.join(top, folder)).then(
        () => true,
        () => false,
      ))
    )
      break;
    folder = path.dirname(folder);
  }
}
