import type { Command } from 'commander';
import type { GoalCliOptions } from './worktrees-action.js';

const REPO_OPTION =
  'fetch the goal branches from this remote first (a URL, a path, or a remote name such as origin): where workers run with --repo push them';
const GOAL_ARGUMENT = 'the goal (its plan id, or the start of it; default: the most recent)';

/** Adds `taskweave diff`, `apply` and `worktrees` (a plan's goal run in git worktrees). */
export function addWorktreeCommands(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('diff')
    .description("show what a goal run in worktrees changed: its branch's stat and patch")
    .argument('[goal]', GOAL_ARGUMENT)
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('--repo <remote>', REPO_OPTION)
    .option('--stat', 'the stat only')
    .option('--json', 'print JSON')
    .action(async (goal: string | undefined, options: GoalCliOptions) => {
      const { diffAction } = await import('./worktrees-action.js');
      setExitCode(await diffAction(goal, options));
    });
  program
    .command('apply')
    .description(
      "merge a goal's branch into your current branch (a conflict with your work is reported and nothing is changed)",
    )
    .argument('[goal]', GOAL_ARGUMENT)
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('--repo <remote>', REPO_OPTION)
    .option('--json', 'print JSON')
    .action(async (goal: string | undefined, options: GoalCliOptions) => {
      const { applyAction } = await import('./worktrees-action.js');
      setExitCode(await applyAction(goal, options));
    });
  program
    .command('worktrees')
    .description("list taskweave's task worktrees left behind (a crashed run, a failed task)")
    .option('-C, --cwd <dir>', 'the workspace folder', process.cwd())
    .option('--prune', 'remove them, and the task branches already merged into their goal')
    .option('--json', 'print JSON')
    .action(async (options: GoalCliOptions & { prune?: boolean }) => {
      const { worktreesAction } = await import('./worktrees-action.js');
      setExitCode(await worktreesAction(options));
    });
}
