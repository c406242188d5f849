import { Command, CommanderError } from 'commander';
import { ModelConfigError } from '../model/types.js';
import { WorkspaceError } from '../tools/workspace.js';
import { errorMessage } from '../util/error-message.js';
import { EXIT } from './exit-codes.js';
import { addResumeCommand } from './resume-command.js';
import { addRunCommand } from './run-command.js';
import { addSessionsCommand } from './sessions-command.js';
import { addTasksCommand } from './tasks-command.js';
import { styleFor } from './terminal.js';
import { UsageError } from './usage-error.js';
import { addWorkCommand } from './work-command.js';

const VERSION = '0.1.0';

/** Runs the CLI with the given argv (as process.argv) and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.completed;
  const program = new Command()
    .name('taskweave')
    .description('A coding agent that finishes multi-step work.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError('(run taskweave --help for usage)');
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  addRunCommand(program, setExitCode);
  addResumeCommand(program, setExitCode);
  addWorkCommand(program, setExitCode);
  addTasksCommand(program, setExitCode);
  addSessionsCommand(program, setExitCode);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.completed : EXIT.usage;
    }
    const style = styleFor(process.stderr);
    if (error instanceof UsageError || error instanceof ModelConfigError || error instanceof WorkspaceError) {
      process.stderr.write(`${style.red('error:')} ${error.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`${style.red('error:')} ${errorMessage(error)}\n`);
    return EXIT.failed;
  }
}
