import type { Command } from 'commander';
import { nearestNames } from '../util/edit-distance.js';
import { UsageError } from './usage-error.js';

/** How many edits away a first word may be from a command name to be taken for a typo of it. */
const COMMAND_TYPO_EDITS = 1;
/** How many edits away an unknown subcommand may be from a real one to be suggested. */
const SUBCOMMAND_SUGGESTION_EDITS = 2;

/** A first word that looks like a mistyped command rather than the start of a goal. */
export interface CommandTypo {
  /** The word as typed. */
  word: string;
  /** The command it is one edit away from. */
  command: string;
}

/**
 * The command that argv's first word (as process.argv) looks like a typo of: a lone word (a goal
 * given in quotes has spaces in it) that names no command but is one edit away from one, as
 * `taskweave sesions list` is from `sessions`. Undefined for anything else.
 */
export function commandTypo(program: Command, argv: readonly string[]): CommandTypo | undefined {
  const word = argv[2];
  if (word === undefined || word.startsWith('-') || !/^[A-Za-z][\w-]*$/.test(word)) return undefined;
  const names = commandNames(program);
  if (names.includes(word)) return undefined;
  const [command] = nearestNames(word, names, COMMAND_TYPO_EDITS);
  return command === undefined ? undefined : { word, command };
}

/**
 * The usage error for a word after a command with subcommands that names none of them: commander
 * would hand it to the default subcommand as an argument (no default subcommand takes one), so
 * `taskweave tasks lst` read "too many arguments for 'list'". Undefined when argv has no such word.
 */
export function unknownSubcommand(program: Command, argv: readonly string[]): string | undefined {
  const [name, word] = argv.slice(2);
  if (name === undefined || word === undefined || word.startsWith('-')) return undefined;
  const parent = program.commands.find(
    (command) => command.name() === name || command.aliases().includes(name),
  );
  if (parent === undefined || parent.commands.length === 0) return undefined;
  const names = commandNames(parent);
  if (names.includes(word)) return undefined;
  const near = nearestNames(word, names, SUBCOMMAND_SUGGESTION_EDITS);
  const suggestion =
    near.length > 0
      ? ` (did you mean ${near.map((command) => `\`taskweave ${name} ${command}\``).join(' or ')}?)`
      : '';
  return `unknown command '${word}' for 'taskweave ${name}'${suggestion}; its commands: ${parent.commands
    .map((command) => command.name())
    .join(', ')}`;
}

/** The names and aliases of a command's subcommands. */
function commandNames(parent: Command): string[] {
  return parent.commands.flatMap((command) => [command.name(), ...command.aliases()]);
}

/**
 * What to run for a first word that looks like a typo: on a terminal the person is asked, and a
 * yes runs the command it is near (a no sends the words as a goal, as typed); without one, or
 * under --json, nothing can be asked and the suggestion is a usage error (exit 2) rather than
 * tokens spent on a goal nobody meant.
 */
export async function settleCommandTypo(
  typo: CommandTypo,
  argv: readonly string[],
  json: boolean,
): Promise<string[]> {
  const suggestion = `did you mean \`taskweave ${typo.command}\`?`;
  if (json || !process.stdin.isTTY || !process.stdout.isTTY) {
    const words = argv.slice(2);
    const firstOption = words.findIndex((word) => word.startsWith('-'));
    const goal = (firstOption < 0 ? words : words.slice(0, firstOption)).join(' ');
    throw new UsageError(
      `unknown command '${typo.word}' (${suggestion}); to give it to the agent as a goal: taskweave run ${JSON.stringify(goal)}`,
    );
  }
  const { createInterface } = await import('node:readline/promises');
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await reader.question(
      `\`${typo.word}\` is not a command: ${suggestion} [y/N] (no: it goes to the agent as a goal) `,
    );
    const yes = /^y(es)?$/i.test(answer.trim());
    return yes ? [...argv.slice(0, 2), typo.command, ...argv.slice(3)] : [...argv];
  } finally {
    reader.close();
  }
}
