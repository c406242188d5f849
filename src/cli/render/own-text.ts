import { visibleLength, wrapStyled } from './styled-text.js';
import { terminalColumns } from './terminal.js';

/** A label column wider than this share of the row is not kept: its text would get too narrow. */
const MAX_HANGING_SHARE = 0.6;
/** A list item (`1. `, `- `, `• `) or a two-column row (a label, then two or more spaces). */
const HANGING_LABEL = /^( *(?:\d+\.|[-•*]) +| *\S(?:.*?\S)? {2,})(?=\S)/;
/** One escape sequence, or one character. */
const TOKEN = /\u001b\[[0-9;]*m|[\s\S]/gu;
/** The colour sequences taskweave's styles write. */
const STYLE_SEQUENCE = /\u001b\[[0-9;]*m/g;

/**
 * Taskweave's own text (help, notices, errors) for a stream: on a terminal each line is wrapped
 * between words to the terminal's width, a row that wraps continuing under its text rather than
 * its label (a two-column row's description, a numbered item's text); elsewhere as it is.
 */
export function ownText(text: string, stream: { isTTY?: boolean; columns?: number }): string {
  const columns = terminalColumns(stream);
  return columns === undefined ? text : wrapOwnText(text, columns - 1);
}

/** `text` wrapped between words to `width` columns, with hanging indents (see ownText). */
export function wrapOwnText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => wrapHanging(line, width))
    .join('\n');
}

function wrapHanging(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  const label = HANGING_LABEL.exec(line.replace(STYLE_SEQUENCE, ''))?.[1];
  const hang = label === undefined ? 0 : visibleLength(label);
  if (hang === 0 || hang > width * MAX_HANGING_SHARE) return wrapStyled(line, width);
  const [head, rest] = splitAtColumn(line, hang);
  const indent = ' '.repeat(hang);
  return wrapStyled(rest, width - hang)
    .split('\n')
    .map((row, index) => (index === 0 ? head + row : indent + row))
    .join('\n');
}

/** A styled text cut after `columns` visible columns; escape sequences stay with the side they are on. */
function splitAtColumn(text: string, columns: number): [string, string] {
  let seen = 0;
  let index = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (seen >= columns && !match[0].startsWith('\u001b')) break;
    if (!match[0].startsWith('\u001b')) seen += visibleLength(match[0]);
    index = (match.index ?? 0) + match[0].length;
  }
  return [text.slice(0, index), text.slice(index)];
}
