import { Command, CommanderError } from 'commander';
import { holdProviderKeys } from '../util/provider-keys.js';
import { VERSION } from '../util/version.js';
import { commandTypo, settleCommandTypo, unknownSubcommand } from './command-typo.js';
import { addAcpCommand } from './commands/acp-command.js';
import { addChatCommand } from './commands/chat-command.js';
import { addCheckpointCommands } from './commands/checkpoints-command.js';
import { addCompletionCommand } from './commands/completion-command.js';
import { addCostCommand } from './commands/cost-command.js';
import { addEvalCommand } from './commands/eval-command.js';
import { addMcpCommand } from './commands/mcp-command.js';
import { addResumeCommand } from './commands/resume-command.js';
import { addRunCommand } from './commands/run-command.js';
import { addServeCommand } from './commands/serve-command.js';
import { addSessionsCommand } from './commands/sessions-command.js';
import { addTasksCommand } from './commands/tasks-command.js';
import { addWorkCommand } from './commands/work-command.js';
import { addWorktreeCommands } from './commands/worktrees-command.js';
import { EXIT } from './exit-codes.js';
import { type HelpLayout, helpLayout } from './help-layout.js';
import { guardClosedOutput } from './render/output-closed.js';
import { styleFor } from './render/terminal.js';
import { UsageError } from './usage-error.js';

/** The text after the top-level help. */
const HELP_AFTER = `
Examples:
  taskweave                                   an interactive session in this folder
  taskweave "fix the build"                   the session, with that goal as its first message
  taskweave run "run the tests and fix what fails"
  cat build.log | taskweave run "explain this error"
  taskweave run --plan always -y "add a CLI flag --dry-run, with tests and docs"
  taskweave sessions show last --events       what the last session did`;

/**
 * The commands that start an agent, where a launch's milliseconds count: argv naming one of them
 * gets a program with that command only (the others' definitions are not built). Any other argv
 * (the default session, `completion`, which lists every command, a typo that commander answers
 * with a suggestion) gets them all.
 */
const AGENT_COMMANDS = new Map<string, (program: Command, setExitCode: (code: number) => void) => void>([
  ['run', addRunCommand],
  ['resume', addResumeCommand],
  ['work', addWorkCommand],
  ['serve', addServeCommand],
  ['acp', addAcpCommand],
]);

/**
 * The program with every command defined, or with `only` when it names one of AGENT_COMMANDS; an
 * action sets the exit code through `setExitCode`.
 */
export function createProgram(setExitCode: (code: number) => void, only?: string): Command {
  const program = new Command()
    .name('taskweave')
    .description('A coding agent that finishes multi-step work.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError('(run taskweave --help for usage)')
    .addHelpText('after', HELP_AFTER);
  const single = only === undefined ? undefined : AGENT_COMMANDS.get(only);
  if (single !== undefined) {
    single(program, setExitCode);
    return program;
  }
  addChatCommand(program, setExitCode);
  addRunCommand(program, setExitCode);
  addResumeCommand(program, setExitCode);
  addWorkCommand(program, setExitCode);
  addServeCommand(program, setExitCode);
  addAcpCommand(program, setExitCode);
  addTasksCommand(program, setExitCode);
  addSessionsCommand(program, setExitCode);
  addCostCommand(program, setExitCode);
  addCheckpointCommands(program, setExitCode);
  addWorktreeCommands(program, setExitCode);
  addMcpCommand(program, setExitCode);
  addEvalCommand(program, setExitCode);
  addCompletionCommand(program, setExitCode);
  return program;
}

/**
 * The top-level help as data, for `--help` answered without commander (quick-answer.ts); the
 * build writes it next to the bundle.
 */
export function topHelpLayout(): HelpLayout {
  return helpLayout(
    createProgram(() => {}),
    HELP_AFTER,
  );
}

/** Runs the CLI with the given argv (as process.argv) and resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // First: no command, MCP server or checker this process starts may see the providers' keys.
  holdProviderKeys();
  let exitCode: number = EXIT.completed;
  const program = createProgram((code) => {
    exitCode = code;
  }, argv[2]);
  guardClosedOutput();
  // Under --json a failure before the first event is still a line a script can read.
  const json = argv.includes('--json');
  try {
    const misuse = unknownSubcommand(program, argv);
    if (misuse !== undefined) throw new UsageError(misuse);
    const typo = commandTypo(program, argv);
    await program.parseAsync(typo === undefined ? argv : await settleCommandTypo(typo, argv, json));
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return EXIT.completed;
      if (json) writeJsonError('usage', error.message.replace(/^error: /, ''));
      return EXIT.usage;
    }
    const style = styleFor(process.stderr);
    // A message may carry text from outside (a config's model name, a URL): printed stripped.
    const { writeTerminal } = await import('../util/terminal-write.js');
    // Wrapped between words on a terminal: a long message (the no-model one) stays readable.
    const { ownText } = await import('./render/own-text.js');
    if (error instanceof UsageError || (await isConfigurationError(error))) {
      const message = (error as Error).message;
      writeTerminal(process.stderr, `${ownText(`${style.red('error:')} ${message}`, process.stderr)}\n`);
      if (json) writeJsonError('configuration', message);
      return EXIT.usage;
    }
    const { errorMessage } = await import('../util/error-message.js');
    const message = errorMessage(error);
    writeTerminal(process.stderr, `${ownText(`${style.red('error:')} ${message}`, process.stderr)}\n`);
    if (json) writeJsonError('failed', message);
    return EXIT.failed;
  }
}

/**
 * The protocol's `error` message on stdout, for a failure before any session exists (so its
 * session_id and run_id are empty and its seq is 0).
 */
function writeJsonError(code: 'usage' | 'configuration' | 'failed', message: string): void {
  const event = { type: 'error', code, message, session_id: '', run_id: '', seq: 0, ts: Date.now() };
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/**
 * Whether an error is the user's to fix (exit 2): bad configuration, a missing workspace, an
 * unknown id. Its classes are loaded only when an error happened: `--help` loads none of them.
 */
async function isConfigurationError(error: unknown): Promise<boolean> {
  const { ModelConfigError, WorkspaceError, RuntimeInputError } = await import('../runtime/errors.js');
  return (
    error instanceof ModelConfigError || error instanceof WorkspaceError || error instanceof RuntimeInputError
  );
}
