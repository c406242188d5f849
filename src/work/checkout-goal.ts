import { git } from './git.js';
import { goalBranch, uncommittedCommit } from './goal-branch.js';
import { GoalRemote } from './goal-remote.js';
import type { CloneRemote } from './repo-clone.js';
import { findRepository } from './repository.js';

/**
 * Under `--repo`, a goal whose work was done in the clone's own checkout (answered without a
 * plan, or a plan whose tasks shared the checkout) is put on its goal branch `taskweave/<goal>`
 * and pushed to the remote, as a goal run in worktrees is: otherwise its files would stay in
 * this worker's private clone. The checkout is then put back at the remote's default branch,
 * clean (taskweave's own folder kept), so the next goal starts from the remote as it is and
 * not from this goal's files. Undefined when the goal changed nothing.
 */
export async function pushCheckoutGoal(options: {
  workspaceRoot: string;
  goalId: string;
  /** The remote as git reaches it: its name in the clone (`origin`) and git's environment for it (its credentials). */
  remote: CloneRemote;
}): Promise<{ branch: string; commit: string } | undefined> {
  const repository = await findRepository(options.workspaceRoot);
  if (!repository) return undefined;
  const { top } = repository;
  const head = (await git(['rev-parse', 'HEAD'], { cwd: top })).toString('utf8').trim();
  const commit = await uncommittedCommit(top, head);
  const remote = new GoalRemote(top, options.remote.name, undefined, options.remote.env);
  const branch = goalBranch(options.goalId);
  let pushed: { branch: string; commit: string } | undefined;
  if (commit !== head) {
    await git(['update-ref', '-m', 'taskweave: goal branch', `refs/heads/${branch}`, commit], { cwd: top });
    // A goal taken over after a worker died may have pushed its branch already: this worker's is the goal's now.
    const tips = await remote.fetchGoal(branch);
    if ((await remote.push(branch, tips.get(branch) ?? '')) === 'rejected')
      throw new Error(`Another worker moved ${branch} on the remote while this goal was pushed.`);
    pushed = { branch, commit };
  }
  const base = await remote.fetchBase();
  await git(['checkout', '--quiet', '--force', '--detach', base ?? head], { cwd: top });
  await git(['clean', '--quiet', '--force', '-d', '-x', '-e', '/.taskweave'], { cwd: top });
  return pushed;
}
