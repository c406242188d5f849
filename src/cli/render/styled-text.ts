import { createRequire } from 'node:module';
import type stringWidthFunction from 'string-width';
import type wrapAnsiFunction from 'wrap-ansi';

/*
 * Text that carries colours, measured and wrapped for a terminal. Apart from text-wrap.ts, so that
 * commands that print no styled prose (--help, tasks list) do not load the width tables.
 */

/**
 * string-width and wrap-ansi, loaded the first time a text needs them: building their tables
 * (Unicode segmenter, emoji expression) costs tens of milliseconds at start-up, and plain text,
 * most of what a run prints, is measured without them.
 */
let widthPackages: { stringWidth: typeof stringWidthFunction; wrapAnsi: typeof wrapAnsiFunction } | undefined;
function loadWidthPackages(): NonNullable<typeof widthPackages> {
  if (widthPackages === undefined) {
    const requirePackage = createRequire(import.meta.url);
    widthPackages = {
      stringWidth: (requirePackage('string-width') as { default: typeof stringWidthFunction }).default,
      wrapAnsi: (requirePackage('wrap-ansi') as { default: typeof wrapAnsiFunction }).default,
    };
  }
  return widthPackages;
}

/** Colour sequences (SGR), which take no columns. */
const COLOUR_SEQUENCES = /\u001b\[[0-9;]*m/g;
/** Printable ASCII only: a column a character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** How many columns a text takes on the screen: escape sequences take none, wide characters two. */
export function visibleLength(text: string): number {
  const bare = text.replace(COLOUR_SEQUENCES, '');
  if (PRINTABLE_ASCII.test(bare)) return bare.length;
  return loadWidthPackages().stringWidth(text);
}

/** Spaces at the end of a row, before the escape sequences that close its styles. */
const TRAILING_SPACES = / +((?:\u001b\[[0-9;]*m)*)$/;
/** Spaces at the start of a row, after the escape sequences that open its styles. */
const LEADING_SPACES = /^((?:\u001b\[[0-9;]*m)*) +/;

/**
 * A text that may carry colours, wrapped between words to `width` columns for a terminal (which
 * would otherwise break a word wherever its row ends). Each line's continuation rows keep its
 * indentation. A word longer than a row is left whole for the terminal to fold, so a long URL
 * stays one. `lead`: the columns of the first row that a label printed before the text takes.
 */
export function wrapStyled(text: string, width: number, lead = 0): string {
  return text
    .split('\n')
    .map((line, index) => wrapStyledLine(line, width, index === 0 ? lead : 0))
    .join('\n');
}

function wrapStyledLine(line: string, width: number, lead: number): string {
  if (lead + visibleLength(line) <= width) return line;
  const indent = /^ */.exec(line)?.[0] ?? '';
  // The label stands in as a word of its width, and is cut off again after wrapping.
  const stand = lead > 0 ? `${'_'.repeat(lead - 1)} ` : '';
  const rows = loadWidthPackages()
    .wrapAnsi(stand + line.slice(indent.length), Math.max(1, width - indent.length), {
      hard: false,
      trim: false,
    })
    .split('\n')
    // The space a row was broken at may end up on either side of the break.
    .map((row, index) => {
      const trimmed = row.replace(TRAILING_SPACES, '$1');
      return index === 0 ? trimmed.slice(stand.length) : trimmed.replace(LEADING_SPACES, '$1');
    });
  return rows.map((row, index) => (index === 0 && row === '' ? '' : indent + row)).join('\n');
}
