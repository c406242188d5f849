import { Command, CommanderError } from 'commander';
import { VERSION } from '../util/version.js';
import { addEvalCommand } from './eval-command.js';
import { EXIT } from './exit-codes.js';
import { addResumeCommand } from './resume-command.js';
import { addRunCommand } from './run-command.js';
import { addServeCommand } from './serve-command.js';
import { addSessionsCommand } from './sessions-command.js';
import { addTasksCommand } from './tasks-command.js';
import { styleFor } from './terminal.js';
import { UsageError } from './usage-error.js';
import { addWorkCommand } from './work-command.js';

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
  addServeCommand(program, setExitCode);
  addTasksCommand(program, setExitCode);
  addSessionsCommand(program, setExitCode);
  addEvalCommand(program, setExitCode);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.completed : EXIT.usage;
    }
    const style = styleFor(process.stderr);
    if (error instanceof UsageError || (await isConfigurationError(error))) {
      process.stderr.write(`${style.red('error:')} ${(error as Error).message}\n`);
      return EXIT.usage;
    }
    const { errorMessage } = await import('../util/error-message.js');
    process.stderr.write(`${style.red('error:')} ${errorMessage(error)}\n`);
    return EXIT.failed;
  }
}

/**
 * Whether an error is the user's to fix (exit 2): bad configuration, a missing workspace, an
 * unknown id. Its classes are loaded only when an error happened: `--help` loads none of them.
 */
async function isConfigurationError(error: unknown): Promise<boolean> {
  const [{ ModelConfigError }, { WorkspaceError }, { RuntimeInputError }] = await Promise.all([
    import('../model/types.js'),
    import('../tools/workspace.js'),
    import('../runtime/errors.js'),
  ]);
  return (
    error instanceof ModelConfigError || error instanceof WorkspaceError || error instanceof RuntimeInputError
  );
}
