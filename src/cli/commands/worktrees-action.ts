/** What `taskweave diff`, `apply` and `worktrees` print: loaded when one runs. */
import {
  applyGoal,
  fetchGoalBranches,
  GoalBranchError,
  goalDiff,
  leftoverWorktrees,
  pruneWorktrees,
} from '../../runtime/goal-work.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';

/** The options of the goal commands. */
export interface GoalCliOptions {
  cwd: string;
  json?: boolean;
  stat?: boolean;
  /** `--repo <remote>`: the goal branches are fetched from it first. */
  repo?: string;
}

/**
 * Runs a goal command: a GoalBranchError (no repository, no such goal) is a usage error, said as
 * every other error is (`error: …`, exit 2).
 */
async function guarded(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof GoalBranchError)) throw error;
    throw new UsageError(error.message);
  }
}

/** `taskweave diff [goal]`. */
export function diffAction(goal: string | undefined, options: GoalCliOptions): Promise<number> {
  return guarded(async () => {
    if (options.repo !== undefined) await fetchGoalBranches(options.cwd, options.repo);
    const diff = await goalDiff(options.cwd, goal);
    if (options.json) {
      writeTerminal(process.stdout, `${JSON.stringify(diff)}\n`);
      return EXIT.completed;
    }
    const head = `${diff.branch} (goal ${diff.goal}, since ${diff.base.slice(0, 7)})\n`;
    const body =
      diff.stat === '' ? 'No changes.\n' : options.stat ? diff.stat : `${diff.stat}\n${diff.patch}`;
    writeTerminal(process.stdout, head + body);
    return EXIT.completed;
  });
}

/** `taskweave apply [goal]`: 0 applied (or already), 1 not applied (a conflict, or git refused). */
export function applyAction(goal: string | undefined, options: GoalCliOptions): Promise<number> {
  return guarded(async () => {
    if (options.repo !== undefined) await fetchGoalBranches(options.cwd, options.repo);
    const outcome = await applyGoal(options.cwd, goal);
    if (options.json) writeTerminal(process.stdout, `${JSON.stringify(outcome)}\n`);
    switch (outcome.kind) {
      case 'applied':
        if (!options.json)
          writeTerminal(process.stdout, `Applied to ${outcome.branch}: ${outcome.commit.slice(0, 7)}.\n`);
        return EXIT.completed;
      case 'already-applied':
        if (!options.json) writeTerminal(process.stdout, `Already in ${outcome.branch}: nothing to do.\n`);
        return EXIT.completed;
      case 'conflict':
        if (!options.json)
          writeTerminal(
            process.stderr,
            `Not applied: your branch and the goal both changed ${outcome.files.join(', ')}. Nothing was changed.\n`,
          );
        return EXIT.failed;
      case 'refused':
        if (!options.json)
          writeTerminal(
            process.stderr,
            `Not applied: git refused, nothing was changed.\n${outcome.message}\n`,
          );
        return EXIT.failed;
    }
  });
}

/** `taskweave worktrees [--prune]`. */
export function worktreesAction(options: GoalCliOptions & { prune?: boolean }): Promise<number> {
  return guarded(async () => {
    if (options.prune) {
      const pruned = await pruneWorktrees(options.cwd);
      if (options.json) writeTerminal(process.stdout, `${JSON.stringify(pruned)}\n`);
      else
        writeTerminal(
          process.stdout,
          `Removed ${pruned.removed.length} worktree${pruned.removed.length === 1 ? '' : 's'} and ${pruned.branches.length} merged task branch${pruned.branches.length === 1 ? '' : 'es'}.\n`,
        );
      return EXIT.completed;
    }
    const left = await leftoverWorktrees(options.cwd);
    if (options.json) writeTerminal(process.stdout, `${JSON.stringify(left)}\n`);
    else if (left.length === 0) writeTerminal(process.stdout, 'No task worktree is left.\n');
    else
      writeTerminal(
        process.stdout,
        `${left.map((entry) => `${entry.branch ?? '(detached)'}  ${entry.path}${entry.locked ? '  (locked)' : ''}`).join('\n')}\n`,
      );
    return EXIT.completed;
  });
}
