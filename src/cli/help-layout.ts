/**
 * The top-level `--help` as data: what commander would print, taken from the program at build
 * time (scripts/bundle.mjs writes it next to the bundle), and laid out for the terminal's width
 * the way commander's default help does, without loading commander (quick-answer.ts). A test
 * holds the two equal at every width.
 */
import type { Command, Help } from 'commander';

/** One section of items (`Options:`, `Commands:`): each a term and its description. */
export interface HelpSection {
  title: string;
  items: Array<[term: string, description: string]>;
}

/** The parts of the top-level help that do not depend on the width. */
export interface HelpLayout {
  /** `taskweave [options] [command]` */
  usage: string;
  description: string;
  sections: HelpSection[];
  /** The text added after the help (`addHelpText('after', …)`), printed as it is. */
  after: string;
}

/** The layout of a program's help, read through commander's own help helper. */
export function helpLayout(program: Command, after: string): HelpLayout {
  const helper: Help = program.createHelp();
  const sections: HelpSection[] = [];
  const arguments_ = helper
    .visibleArguments(program)
    .map((argument): [string, string] => [
      helper.argumentTerm(argument),
      helper.argumentDescription(argument),
    ]);
  if (arguments_.length > 0) sections.push({ title: 'Arguments:', items: arguments_ });
  const optionGroups = helper.groupItems(
    [...program.options],
    helper.visibleOptions(program),
    (option) => option.helpGroupHeading ?? 'Options:',
  );
  for (const [title, options] of optionGroups) {
    sections.push({
      title,
      items: options.map((option) => [helper.optionTerm(option), helper.optionDescription(option)]),
    });
  }
  const commandGroups = helper.groupItems(
    program.commands as Command[],
    helper.visibleCommands(program),
    (command) => command.helpGroup() || 'Commands:',
  );
  for (const [title, commands] of commandGroups) {
    sections.push({
      title,
      items: commands.map((command) => [
        helper.subcommandTerm(command),
        helper.subcommandDescription(command),
      ]),
    });
  }
  return {
    usage: helper.commandUsage(program),
    description: helper.commandDescription(program),
    sections: sections.filter((section) => section.items.length > 0),
    after,
  };
}

/** Below this many columns commander leaves a text unwrapped. */
const MIN_WIDTH_TO_WRAP = 40;
const ITEM_INDENT = 2;
const SPACER = 2;

/**
 * The help text for a terminal `width` columns wide (undefined: not a terminal, 80), equal to
 * what commander's default help prints for the same program.
 */
export function formatHelp(layout: HelpLayout, width: number | undefined): string {
  const helpWidth = width ?? 80;
  const termWidth = Math.max(
    0,
    ...layout.sections.flatMap((section) => section.items.map(([term]) => term.length)),
  );
  let lines = [`Usage: ${layout.usage}`, ''];
  if (layout.description.length > 0) lines.push(boxWrap(layout.description, helpWidth), '');
  for (const section of layout.sections) {
    lines = lines.concat([
      section.title,
      ...section.items.map(([term, description]) => formatItem(term, termWidth, description, helpWidth)),
      '',
    ]);
  }
  // commander writes the text added after the help on a line of its own.
  const after = layout.after.length > 0 ? `${layout.after}\n` : '';
  return `${lines.join('\n')}${after}`;
}

function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  const indent = ' '.repeat(ITEM_INDENT);
  if (!description) return indent + term;
  const remaining = helpWidth - termWidth - SPACER - ITEM_INDENT;
  const formatted =
    remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + SPACER)}`);
  return `${indent}${term.padEnd(termWidth)}${' '.repeat(SPACER)}${formatted.replace(/\n/g, `\n${indent}`)}`;
}

/** Wraps at whitespace, keeping the text's own line breaks (commander's `boxWrap`). */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const wrapped: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/\s*\S+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    let current = [chunks[0]!];
    let currentWidth = chunks[0]!.length;
    for (const chunk of chunks.slice(1)) {
      if (currentWidth + chunk.length <= width) {
        current.push(chunk);
        currentWidth += chunk.length;
        continue;
      }
      wrapped.push(current.join(''));
      const next = chunk.trimStart();
      current = [next];
      currentWidth = next.length;
    }
    wrapped.push(current.join(''));
  }
  return wrapped.join('\n');
}
