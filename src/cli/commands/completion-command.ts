import { Argument, type Command } from 'commander';
import { EXIT } from '../exit-codes.js';

/** Adds `taskweave completion <shell>`: prints a completion script for bash, zsh or fish. */
export function addCompletionCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Examples:
  eval "$(taskweave completion bash)"                         # in ~/.bashrc
  eval "$(taskweave completion zsh)"                          # in ~/.zshrc
  taskweave completion fish > ~/.config/fish/completions/taskweave.fish`,
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./completion-script.js');
      process.stdout.write(completionScript(program, shell));
      setExitCode(EXIT.completed);
    });
}
