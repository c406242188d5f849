import type { CommandLine } from './command-line.js';
import { withoutHarmlessWrappers } from './command-runs.js';

/**
 * What must never be in a line the allow list or an "always" prefix lets through, whatever the
 * parser made of it: several lines, and command or process substitution in any form. A check
 * on the text itself, behind the grammar, so that a misreading cannot let a second command in.
 */
const HIDDEN_COMMAND = /[\n\r`]|\$\(|<\(|>\(/;

/**
 * The words of a line that is one plain command (no operator, redirection, assignment,
 * substitution, variable, glob or comment), its harmless wrappers left out; undefined otherwise.
 */
export function plainCommand(line: CommandLine): string[] | undefined {
  const words = plainWords(line);
  return words && withoutHarmlessWrappers(words);
}

/** The words of a line that is one plain command, as written (wrappers kept); undefined otherwise. */
export function plainWords(line: CommandLine): string[] | undefined {
  if (!line.shell.parsed || line.shell.plain === undefined || HIDDEN_COMMAND.test(line.text))
    return undefined;
  return line.shell.plain;
}
