import { filesInTheWay } from './files-in-the-way.js';
import { git, gitOutcome } from './git.js';
import { BRANCH_PREFIX, commitIdentity, commitOf, goalBase, goalBranch, goalTextOf } from './goal-branch.js';
import { withoutRemoteCredentials } from './repo-clone.js';
import { findRepository } from './repository.js';
import { listWorktrees, removeWorktree, worktreesFolder } from './worktree.js';

/** A goal named by the user that has no branch, or a workspace outside git. */
export class GoalBranchError extends Error {
  override name = 'GoalBranchError';
}

async function topOf(workspaceRoot: string): Promise<string> {
  const repository = await findRepository(workspaceRoot);
  if (!repository)
    throw new GoalBranchError(
      `${workspaceRoot} is not in a git repository: goals run in worktrees only in one.`,
    );
  return repository.top;
}

/** The goal branches of a repository, the most recent first: `{ goal, branch, commit }`. */
export async function listGoalBranches(
  workspaceRoot: string,
): Promise<{ goal: string; branch: string; date: number }[]> {
  const top = await topOf(workspaceRoot);
  const printed = (
    await git(
      [
        'for-each-ref',
        '--sort=-committerdate',
        '--format=%(refname:short) %(committerdate:unix)',
        `refs/heads/${BRANCH_PREFIX}`,
      ],
      {
        cwd: top,
      },
    )
  ).toString('utf8');
  const goals: { goal: string; branch: string; date: number }[] = [];
  for (const line of printed.split('\n')) {
    const [branch, date] = line.split(' ');
    if (!branch || !date) continue;
    const goal = branch.slice(BRANCH_PREFIX.length);
    // Task branches are `<goal>.<task>`; a goal id has no dot.
    if (goal.includes('.')) continue;
    goals.push({ goal, branch, date: Number(date) });
  }
  return goals;
}

/** The goal's branch: the one named (a goal id, or a unique start of one), or the most recent. */
export async function resolveGoal(
  workspaceRoot: string,
  goal: string | undefined,
): Promise<{ goal: string; branch: string }> {
  const goals = await listGoalBranches(workspaceRoot);
  if (goals.length === 0)
    throw new GoalBranchError('No goal has run in worktrees here yet (no taskweave/ branch).');
  if (goal === undefined) return goals[0]!;
  const exact = goals.find((entry) => entry.goal === goal || entry.branch === goal);
  if (exact) return exact;
  const matching = goals.filter((entry) => entry.goal.startsWith(goal));
  if (matching.length === 1) return matching[0]!;
  if (matching.length > 1)
    throw new GoalBranchError(
      `"${goal}" names ${matching.length} goals: ${matching.map((entry) => entry.goal).join(', ')}.`,
    );
  throw new GoalBranchError(
    `No goal "${goal}": the goals here are ${goals.map((entry) => entry.goal).join(', ')}.`,
  );
}

/**
 * What a goal changed: from where it started (the files on disk then, or where its branch left
 * the user's current branch: goalBase, so work the user did meanwhile is not shown as undone) to
 * the goal branch. `stat` and `patch`.
 */
export async function goalDiff(workspaceRoot: string, goal: string | undefined) {
  const top = await topOf(workspaceRoot);
  const resolved = await resolveGoal(workspaceRoot, goal);
  const base = await goalBase(top, resolved.branch);
  const range = [base, `refs/heads/${resolved.branch}`];
  const stat = (
    await git(['diff', '--no-color', '--no-ext-diff', '--stat', ...range], { cwd: top })
  ).toString('utf8');
  const patch = (await git(['diff', '--no-color', '--no-ext-diff', ...range], { cwd: top })).toString('utf8');
  return { ...resolved, base, stat, patch };
}

/**
 * Brings the goal branches of a remote (a URL, a path, or the name of one of the repository's
 * remotes) into the user's repository, where workers on other machines pushed them (`--repo`):
 * each `taskweave/<goal>` the remote has becomes the local branch of that name (the remote's is
 * the truth; task branches are not fetched). Returns the goals fetched.
 */
export async function fetchGoalBranches(workspaceRoot: string, remote: string): Promise<string[]> {
  const top = await topOf(workspaceRoot);
  const listed = await gitOutcome(['ls-remote', '--heads', remote, `refs/heads/${BRANCH_PREFIX}*`], {
    cwd: top,
  });
  if (listed.code !== 0)
    throw new GoalBranchError(
      withoutRemoteCredentials(
        `The goal branches of ${remote} could not be listed: ${listed.stderr.trim()}`,
        remote,
      ),
    );
  const branches = listed.stdout
    .split('\n')
    .map((line) => line.split('\t')[1] ?? '')
    .filter((ref) => ref.startsWith(`refs/heads/${BRANCH_PREFIX}`))
    .map((ref) => ref.slice('refs/heads/'.length))
    // Task branches are `<goal>.<task>`; only goal branches are applied.
    .filter((branch) => !branch.slice(BRANCH_PREFIX.length).includes('.'));
  if (branches.length === 0) return [];
  const fetched = await gitOutcome(
    ['fetch', '--no-tags', remote, ...branches.map((branch) => `+refs/heads/${branch}:refs/heads/${branch}`)],
    { cwd: top },
  );
  // A goal branch checked out here is not moved under the user's feet (git refuses): said.
  if (fetched.code !== 0)
    throw new GoalBranchError(
      withoutRemoteCredentials(
        `The goal branches of ${remote} could not be fetched: ${fetched.stderr.trim()}`,
        remote,
      ),
    );
  return branches.map((branch) => branch.slice(BRANCH_PREFIX.length));
}

/** How applying a goal to the user's branch went. */
export type ApplyOutcome =
  | { kind: 'applied'; branch: string; commit: string }
  | { kind: 'already-applied'; branch: string }
  /** The user's branch and the goal changed the same lines: nothing was changed. */
  | { kind: 'conflict'; files: string[] }
  /** A file of the user's tree that differs from HEAD is in the way (named), or git refused: nothing was changed. */
  | { kind: 'refused'; message: string };

/**
 * Merges the goal branch into the user's current branch, in the user's checkout. The merge is
 * tried first in the object database (`merge-tree`): a conflict is reported and nothing in the
 * checkout changes; a clean one is refused when it would overwrite a file of the user's tree that
 * differs from HEAD (changed, untracked or ignored: filesInTheWay), and is then made by
 * `git merge --no-ff` (one commit to revert).
 */
export async function applyGoal(workspaceRoot: string, goal: string | undefined): Promise<ApplyOutcome> {
  const top = await topOf(workspaceRoot);
  const resolved = await resolveGoal(workspaceRoot, goal);
  const current = (
    await gitOutcome(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: top })
  ).stdout.trim();
  const where = current || 'the detached HEAD';
  const head = await commitOf(top, 'HEAD');
  const tip = await commitOf(top, `refs/heads/${resolved.branch}`);
  if (!head || !tip) throw new GoalBranchError('The repository has no commit to apply the goal to.');
  if ((await gitOutcome(['merge-base', '--is-ancestor', tip, head], { cwd: top })).code === 0)
    return { kind: 'already-applied', branch: where };
  const tried = await gitOutcome(['merge-tree', '--write-tree', '--name-only', '--no-messages', head, tip], {
    cwd: top,
  });
  if (tried.code === 1) {
    return {
      kind: 'conflict',
      files: [
        ...new Set(
          tried.stdout
            .split('\n')
            .slice(1)
            .filter((line) => line !== ''),
        ),
      ],
    };
  }
  // git overwrites an ignored file the merge brings without asking: every file in the way is named first.
  const tree = tried.stdout.split('\n')[0]?.trim() ?? '';
  const inTheWay = await filesInTheWay({ top, head, tree });
  if (inTheWay.length > 0) return { kind: 'refused', message: inTheWayMessage(inTheWay, where) };
  const merged = await gitOutcome(
    [
      'merge',
      '--no-ff',
      '--no-edit',
      '-m',
      applyMessage(resolved.goal, await goalTextOf(top, resolved.branch)),
      `refs/heads/${resolved.branch}`,
    ],
    { cwd: top, env: await commitIdentity(top) },
  );
  if (merged.code !== 0) {
    // git stops before touching anything when local changes are in the way; make sure no merge is left open.
    await gitOutcome(['merge', '--abort'], { cwd: top });
    return { kind: 'refused', message: merged.stderr.trim() || merged.stdout.trim() };
  }
  return { kind: 'applied', branch: where, commit: (await commitOf(top, 'HEAD')) ?? '' };
}

/** Subject lines past this many characters are cut (git's tools show about that much). */
const SUBJECT_CHARS = 72;

/** The merge commit's message: the goal's text first (cut in the subject, whole below), then its id. */
function applyMessage(goalId: string, goal: string | undefined): string {
  if (goal === undefined) return `taskweave: apply goal ${goalId}`;
  const prefix = 'taskweave: ';
  const room = SUBJECT_CHARS - prefix.length;
  const subject = `${prefix}${goal.length <= room ? goal : `${goal.slice(0, room - 1)}…`}`;
  return `${subject}\n\n${goal}\n\nApplies goal ${goalId} (${goalBranch(goalId)}).`;
}

function inTheWayMessage(files: string[], where: string): string {
  return (
    `The goal would overwrite ${files.join(', ')} in your checkout, which ${files.length === 1 ? 'differs' : 'differ'} ` +
    `from the last commit of ${where} (changed, untracked or ignored). Move ${files.length === 1 ? 'it' : 'them'} ` +
    'away or commit, then apply again.'
  );
}

/** A task worktree left behind (a goal that ended in a crash, a failed task kept to look at). */
export interface LeftoverWorktree {
  path: string;
  branch?: string;
  locked: boolean;
}

/** taskweave's worktrees still registered (or folders git forgot). */
export async function leftoverWorktrees(workspaceRoot: string): Promise<LeftoverWorktree[]> {
  const top = await topOf(workspaceRoot);
  const folder = await worktreesFolder(top);
  return (await listWorktrees(top))
    .filter(
      (entry) =>
        entry.path.startsWith(`${folder}/`) || entry.branch?.startsWith(`refs/heads/${BRANCH_PREFIX}`),
    )
    .map((entry) => ({
      path: entry.path,
      branch: entry.branch?.replace(/^refs\/heads\//, ''),
      locked: entry.locked,
    }));
}

/**
 * Removes taskweave's leftover worktrees and the task branches already merged into their goal
 * (their work is on the goal branch); goal branches and unmerged task branches stay.
 */
export async function pruneWorktrees(
  workspaceRoot: string,
): Promise<{ removed: string[]; branches: string[] }> {
  const top = await topOf(workspaceRoot);
  const removed: string[] = [];
  for (const entry of await leftoverWorktrees(workspaceRoot)) {
    await removeWorktree(top, entry.path);
    removed.push(entry.path);
  }
  await git(['worktree', 'prune'], { cwd: top });
  const branches: string[] = [];
  const printed = (
    await git(['for-each-ref', '--format=%(refname:short)', `refs/heads/${BRANCH_PREFIX}`], { cwd: top })
  )
    .toString('utf8')
    .split('\n')
    .filter((line) => line.includes('.'));
  for (const branch of printed) {
    const goal = goalBranch(branch.slice(BRANCH_PREFIX.length).split('.')[0] ?? '');
    const merged = await gitOutcome(
      ['merge-base', '--is-ancestor', `refs/heads/${branch}`, `refs/heads/${goal}`],
      {
        cwd: top,
      },
    );
    if (merged.code !== 0) continue;
    await git(['update-ref', '-d', `refs/heads/${branch}`], { cwd: top });
    branches.push(branch);
  }
  return { removed, branches };
}
