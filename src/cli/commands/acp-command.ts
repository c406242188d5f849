import type { Command } from 'commander';
import { type AcpCliOptions, addRunOptions } from '../options.js';

/** Adds `taskweave acp`: the Agent Client Protocol over stdio, for editors (docs/editors.md). */
export function addAcpCommand(program: Command, setExitCode: (code: number) => void): void {
  addRunOptions(
    program
      .command('acp')
      .description(
        'speak the Agent Client Protocol on stdin/stdout, for an editor that starts taskweave as its agent (Zed, JetBrains, Neovim, Emacs)',
      ),
  )
    .addHelpText(
      'after',
      '\nAn editor starts it; see docs/editors.md. Logs go to stderr; stdout is the protocol.\n',
    )
    .action(async (options: AcpCliOptions) => {
      const { runAcp } = await import('./acp-action.js');
      setExitCode(await runAcp(options));
    });
}
