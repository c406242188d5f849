import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import type { ChatCliOptions } from '../interactive/interactive-session.js';
import { addAgentOptions, type RunCliOptions } from '../options.js';

/**
 * Adds the interactive session, the command taskweave runs when none is named: `taskweave` on
 * a terminal opens a prompt, `taskweave "<goal>"` opens it with that goal as the first message
 * (as `claude "…"` does). Without a terminal a goal runs as `taskweave run "<goal>"` would (the
 * user asked for it to be done; a question then ends the run with exit code 4), and no goal
 * prints the help.
 */
export function addChatCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('chat', { isDefault: true })
      .description('an interactive session: type goals one after another (the default on a terminal)')
      .argument('[goal...]', 'a first goal, run as the session opens (without a terminal: as `run` runs it)'),
  )
    .option('-c, --continue', "continue the workspace's last session with its history")
    .action(async (goalWords: string[], options: ChatCliOptions) => {
      const goal = goalWords.join(' ').trim();
      const terminal = process.stdin.isTTY && process.stdout.isTTY && !options.json;
      if (!terminal && goal !== '') {
        if (!options.json)
          process.stderr.write(
            `No terminal for an interactive session: running the goal as taskweave run "<goal>" does${options.continue ? ', in the last session' : ''}.\n`,
          );
        const { runGoal } = await import('./run-action.js');
        const runOptions: RunCliOptions = {
          ...options,
          wait: true,
          resume: options.continue ? 'last' : undefined,
        };
        setExitCode(await runGoal(goal, runOptions));
        return;
      }
      if (!terminal) {
        process.stderr.write(program.helpInformation());
        process.stderr.write(
          '\nThe interactive session needs a terminal; scripts use: taskweave run "<goal>" (or taskweave "<goal>")\n',
        );
        setExitCode(EXIT.usage);
        return;
      }
      // The sandbox's probe (a process of its own) runs while the session's code loads, not after it.
      const { probeSandboxAhead } = await import('../../runtime/sandbox-probe.js');
      probeSandboxAhead(options.sandbox);
      const { runInteractiveSession } = await import('../interactive/interactive-session.js');
      setExitCode(await runInteractiveSession(options, goal === '' ? undefined : goal));
    });
}
