import type { Command } from 'commander';
import { addAgentOptions, type RunCliOptions } from '../options.js';
import { UsageError } from '../usage-error.js';

/** Adds `taskweave run` to the program; what runs it is loaded when it runs. */
export function addRunCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('run')
      .description('work a goal through with tools until it is done, showing each step')
      .argument('<goal...>', 'what taskweave should do, in plain words'),
  )
    .option(
      '--image <file>',
      'attach an image (PNG, JPEG, GIF or WebP) for the model to see; repeatable, up to 8; larger than 2000 px or 5 MB is scaled down, over 20 MB refused',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--resume <session>', 'continue a session with its history: its id, a unique prefix, or "last"')
    .option(
      '--interrupt',
      'stop the task running in this workspace (at its next step boundary) and run this goal next',
    )
    .option(
      '--repo <remote>',
      "queue the goal in this repository's queue of the shared store (its git remote URL or path): workers started with work --repo run it in their clones; this shows its steps until it ends (--no-wait: only queue it)",
    )
    .option(
      '--no-wait',
      'when another task runs in this workspace, only queue the goal and exit (code 5) instead of waiting for its turn',
    )
    .addHelpText(
      'after',
      `
Examples:
  taskweave run "run npm test and fix what fails"
  taskweave run --image shot.png "the page looks like this screenshot: fix the header"
  taskweave run -m openai:gpt-4.1 --plan always "add a --dry-run flag, with tests and docs"
  cat build.log | taskweave run "explain this error"
  taskweave run --json "list the TODO comments" | jq -c 'select(.type == "tool_start")'`,
    )
    .action(async (goalWords: string[], options: RunCliOptions) => {
      const goal = goalWords.join(' ').trim();
      if (goal === '') throw new UsageError('The goal is empty: say what taskweave should do.');
      // The sandbox's probe (a process of its own) runs while the run's code loads, not after it.
      const { probeSandboxAhead } = await import('../../runtime/sandbox-probe.js');
      probeSandboxAhead(options.sandbox);
      const { runGoal } = await import('./run-action.js');
      setExitCode(await runGoal(goal, options));
    });
}
