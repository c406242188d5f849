import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { taskRefName } from '../plan/task-ref-name.js';
import { git, gitOutcome } from './git.js';

/** Where taskweave's branches live: `refs/heads/taskweave/…`. */
export const BRANCH_PREFIX = 'taskweave/';

/**
 * A name part made safe for a ref: what git refuses in a ref name (spaces, `~^:?*[\`, `..`,
 * a leading `.` or `-`, a trailing `.lock`) becomes `-`.
 */
export function refPart(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/\.{2,}/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/\.lock$/, '-lock');
  return cleaned === '' ? 'x' : cleaned;
}

/** The branch a goal (one plan) works on: `taskweave/<goal>`. */
export function goalBranch(goalId: string): string {
  // No dot in the goal part: a dot parts the goal from the task in a task branch's name.
  return `${BRANCH_PREFIX}${refPart(goalId).replace(/\./g, '-')}`;
}

/**
 * The branch of one task of a goal: `taskweave/<goal>.<task>`. Not `taskweave/<goal>/<task>`:
 * git keeps a branch as a file, so `taskweave/<goal>` and `taskweave/<goal>/…` cannot both
 * exist (a ref cannot be a file and a folder at once). The task part is injective
 * (plan/task-ref-name.ts): two tasks of a goal never share a branch, so never a worktree.
 */
export function taskBranch(goalId: string, taskId: string): string {
  return `${goalBranch(goalId)}.${taskRefName(taskId)}`;
}

/** Who taskweave's own commits are by when the repository names no one (a fresh CI box). */
export async function commitIdentity(cwd: string): Promise<Record<string, string>> {
  const said = await gitOutcome(['var', 'GIT_COMMITTER_IDENT'], { cwd });
  if (said.code === 0) return {};
  return {
    GIT_AUTHOR_NAME: 'taskweave',
    GIT_AUTHOR_EMAIL: 'taskweave@localhost',
    GIT_COMMITTER_NAME: 'taskweave',
    GIT_COMMITTER_EMAIL: 'taskweave@localhost',
  };
}

/** The commit a ref points at, or undefined when there is no such ref. */
export async function commitOf(cwd: string, ref: string): Promise<string | undefined> {
  const said = await gitOutcome(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd });
  return said.code === 0 ? said.stdout.trim() : undefined;
}

/**
 * Creates the goal branch at the user's HEAD unless it exists (a resumed goal keeps its own),
 * without touching the user's checkout, index or current branch. With `includeUncommitted`, the
 * branch starts at a commit on top of HEAD holding the user's uncommitted changes (tracked and
 * untracked, not ignored), built through a throw-away index. `from`: start from this commit
 * instead (a revised plan continues its earlier plan's goal branch).
 */
export async function ensureGoalBranch(options: {
  top: string;
  goalId: string;
  includeUncommitted?: boolean;
  from?: string;
  /** The checkout's index file, when known (Repository.index): one git process fewer. */
  index?: string;
}): Promise<{ branch: string; commit: string; created: boolean }> {
  const branch = goalBranch(options.goalId);
  const [existing, head] = await Promise.all([
    commitOf(options.top, `refs/heads/${branch}`),
    commitOf(options.top, options.from ?? 'HEAD'),
  ]);
  if (existing) return { branch, commit: existing, created: false };
  if (!head) throw new Error('The repository has no commit yet: worktrees need one to start from.');
  let start = head;
  if (options.includeUncommitted && options.from === undefined)
    start = await uncommittedCommit(options.top, head, options.index);
  // Create only: an empty old value makes update-ref fail when another process made it first.
  await git(['update-ref', '-m', 'taskweave: goal branch', `refs/heads/${branch}`, start, ''], {
    cwd: options.top,
  });
  return { branch, commit: start, created: true };
}

/** The subject of the commit holding the files as they were on disk when a goal started. */
const UNCOMMITTED_SUBJECT = 'taskweave: uncommitted changes at the start';

/**
 * The commit a goal branch started from: the commit of the files as they were on disk when the
 * goal started (the oldest commit of the branch's first-parent line that HEAD does not have, when
 * it is that commit), else where the branch left the user's HEAD (their merge base).
 */
export async function goalBase(top: string, branch: string): Promise<string> {
  const own = (
    await git(
      ['rev-list', '--first-parent', '--reverse', '--format=%s', `refs/heads/${branch}`, '--not', 'HEAD'],
      {
        cwd: top,
      },
    )
  )
    .toString('utf8')
    .split('\n');
  // `commit <id>` then its subject, oldest first.
  const first = /^commit (\S+)$/.exec(own[0] ?? '')?.[1];
  if (first && own[1] === UNCOMMITTED_SUBJECT) return first;
  const base = await gitOutcome(['merge-base', 'HEAD', `refs/heads/${branch}`], { cwd: top });
  if (base.code !== 0) throw new Error(`${branch} shares no history with your HEAD.`);
  return base.stdout.trim();
}

/**
 * A commit on top of `head` with the working tree as it is (through a throw-away index); `head`
 * when nothing differs. The throw-away index starts as a copy of the user's (its stat data says
 * which files are unchanged), so `git add -A` hashes only the files that changed, not the whole
 * tree; from `head`'s tree when the user's index cannot be used (none yet, or a split index).
 * `userIndex`: the checkout's index file, when the caller knows it. What does not depend on the
 * new tree (is .taskweave ignored, `head`'s tree, the committer) is asked beside `git add`.
 */
export async function uncommittedCommit(top: string, head: string, userIndex?: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'taskweave-index-'));
  const indexFile = path.join(folder, 'index');
  const env = { GIT_INDEX_FILE: indexFile };
  const headTree = git(['rev-parse', `${head}^{tree}`], { cwd: top }).then((said) =>
    said.toString('utf8').trim(),
  );
  const identity = commitIdentity(top);
  // Awaited on every path, so that neither rejects unheard when the work below fails first.
  headTree.catch(() => {});
  identity.catch(() => {});
  try {
    // taskweave's own folder stays out; naming it when it is ignored already makes `git add` fail.
    const [ignored, seeded] = await Promise.all([
      gitOutcome(['check-ignore', '-q', '.taskweave'], { cwd: top }).then((said) => said.code === 0),
      copyUserIndex(top, indexFile, userIndex),
    ]);
    const addAll = () =>
      git(['add', '-A', '--', '.', ...(ignored ? [] : [':(exclude).taskweave'])], { cwd: top, env });
    let added = false;
    if (seeded)
      added = await addAll().then(
        () => true,
        () => false,
      );
    if (!added) {
      await rm(indexFile, { force: true });
      await git(['read-tree', head], { cwd: top, env });
      await addAll();
    }
    const tree = (await git(['write-tree'], { cwd: top, env })).toString('utf8').trim();
    if (tree === (await headTree)) return head;
    const commit = await git(['commit-tree', tree, '-p', head, '-m', UNCOMMITTED_SUBJECT], {
      cwd: top,
      env: await identity,
    });
    return commit.toString('utf8').trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Copies the checkout's index (`known`, else asked of git) to `target`; false when it has none. */
async function copyUserIndex(top: string, target: string, known?: string): Promise<boolean> {
  const userIndex =
    known ?? (await gitOutcome(['rev-parse', '--git-path', 'index'], { cwd: top })).stdout.trim();
  if (userIndex === '') return false;
  return copyFile(path.resolve(top, userIndex), target).then(
    () => true,
    () => false,
  );
}

/** The trailer of a goal branch's merge commits that holds the goal's text (on one line). */
export const GOAL_TRAILER = 'Taskweave-Goal';

/** `Taskweave-Goal: <the goal's text on one line>`, for a commit message's end. */
export function goalTrailer(goal: string): string {
  return `${GOAL_TRAILER}: ${goal.replace(/\s+/g, ' ').trim()}`;
}

/** The goal's text a goal branch's commits carry (goalTrailer), the latest; undefined when none does. */
export async function goalTextOf(cwd: string, branch: string): Promise<string | undefined> {
  const said = await gitOutcome(
    [
      'log',
      '-n',
      '50',
      `--format=%(trailers:key=${GOAL_TRAILER},valueonly,separator=%x20)`,
      `refs/heads/${branch}`,
    ],
    { cwd },
  );
  if (said.code !== 0) return undefined;
  return said.stdout
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
}
