import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { addAgentOptions } from '../options.js';

/**
 * Adds the interactive session, the command taskweave runs when none is named: `taskweave` on
 * a terminal opens a prompt; without a terminal it prints the help (scripts use `run`).
 */
export function addChatCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('chat', { isDefault: true })
      .description('an interactive session: type goals one after another (the default on a terminal)'),
  )
    .option('-c, --continue', "continue the workspace's last session with its history")
    .action(async (options) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY || options.json) {
        process.stderr.write(program.helpInformation());
        process.stderr.write(
          '\nThe interactive session needs a terminal; scripts use: taskweave run "<goal>"\n',
        );
        setExitCode(EXIT.usage);
        return;
      }
      // The sandbox's probe (a process of its own) runs while the session's code loads, not after it.
      const { probeSandboxAhead } = await import('../../runtime/sandbox-ahead.js');
      probeSandboxAhead(options.sandbox);
      const { runInteractiveSession } = await import('../interactive/interactive-session.js');
      setExitCode(await runInteractiveSession(options));
    });
}
