import type { ShellWord } from './shell-syntax.js';

/**
 * Programs that run a command they were given in a form the wrapper table does not cover: what
 * the deny list must look at, for command-runs.ts to follow — a command line to read, words to
 * follow as a command, or `unknown` (a shell reading its input, a command taskweave cannot see).
 */
export type LaunchedCommand = { line: ShellWord } | { words: ShellWord[] } | 'unknown';

/** Package runners: `npx`, `bunx`, `npm exec|x`, `pnpm exec|dlx`, `yarn exec|dlx`. */
const RUNNER_SUBCOMMANDS: Record<string, readonly string[] | null> = {
  npx: null,
  bunx: null,
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
};
const RUNNER_VALUED = new Set([
  '-p',
  '--package',
  '--prefix',
  '-w',
  '--workspace',
  '--filter',
  '-C',
  '--dir',
]);

/**
 * What a package runner runs: `npx -c '…'` a command line; `npx git push` the command (npx
 * runs a program from the PATH when no package is named so); undefined when it runs nothing.
 */
export function packageRunnerCommand(
  program: string,
  args: readonly ShellWord[],
): LaunchedCommand | undefined {
  if (!Object.hasOwn(RUNNER_SUBCOMMANDS, program)) return undefined;
  const subcommands = RUNNER_SUBCOMMANDS[program];
  let rest = args;
  if (subcommands) {
    if (rest[0] === undefined) return 'unknown';
    if (!subcommands.includes(rest[0])) return undefined;
    rest = rest.slice(1);
  }
  for (let index = 0; index < rest.length; index += 1) {
    const word = rest[index];
    if (word === undefined) return 'unknown';
    if (word === '-c' || word === '--call') return { line: rest[index + 1] };
    if (word.startsWith('--call=')) return { line: word.slice('--call='.length) };
    if (word === '--') return { words: rest.slice(index + 1) };
    if (!word.startsWith('-')) return { words: rest.slice(index) };
    if (RUNNER_VALUED.has(word)) index += 1;
  }
  return undefined;
}

/**
 * xargs's command with the words its replace string (`-I {}`, `-i`, `--replace`) stands in
 * unknown: `xargs -I{} sh -c '{}'` runs whatever its input says.
 */
export function xargsReplaced(args: readonly ShellWord[], command: ShellWord[]): ShellWord[] {
  const placeholder = replaceString(args);
  if (placeholder === undefined) return command;
  return command.map((word) => (word === undefined || word.includes(placeholder) ? undefined : word));
}

function replaceString(args: readonly ShellWord[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index];
    if (word === undefined || !word.startsWith('-')) return undefined;
    if (word === '-I') return args[index + 1] ?? '{}';
    if (word.startsWith('-I')) return word.slice(2);
    if (word === '-i' || word === '--replace') return '{}';
    if (word.startsWith('-i')) return word.slice(2);
    if (word.startsWith('--replace=')) return word.slice('--replace='.length);
  }
  return undefined;
}

/**
 * A shell a user switch starts without a command (`sudo -s`, `sudo -i`, `doas -s`, `su` without
 * `-c`): it reads its commands from its input, which a pipe or a heredoc fills.
 */
export function switchedUserShell(
  program: string,
  args: readonly ShellWord[],
  command: readonly ShellWord[],
): boolean {
  if (program === 'su')
    return !args.some((word) => word === '-c' || word === '--command' || word === undefined);
  if (program !== 'sudo' && program !== 'doas') return false;
  if (command.length > 0) return false;
  return args.some(
    (word) => word === undefined || word === '--shell' || word === '--login' || /^-[A-Za-z]*[si]/.test(word),
  );
}

/**
 * git subcommands that run a shell command of their arguments: `submodule foreach`, `rebase
 * -x`/`--exec`, `bisect run`. The words are git's without its global options.
 */
export function gitRunsCommand(words: readonly ShellWord[]): boolean {
  const [, subcommand, ...rest] = words;
  if (subcommand === 'submodule') return rest.includes('foreach');
  if (subcommand === 'rebase')
    return rest.some(
      (word) => word === undefined || word === '-x' || word.startsWith('--exec') || /^-[A-Za-z]*x/.test(word),
    );
  if (subcommand === 'bisect') return rest[0] === 'run';
  return false;
}
