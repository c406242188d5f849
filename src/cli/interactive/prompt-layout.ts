import { visibleLength } from '../render/styled-text.js';

/** Where the prompt's text sits on the screen, in rows below the prompt's first row and columns. */
export interface PromptLayout {
  /** The text as written: the prompt before the first line, `indent` before the others. */
  written: string;
  /** The rows the text takes (the row the cursor rests on after writing it included). */
  endRow: number;
  endColumn: number;
  cursorRow: number;
  cursorColumn: number;
}

/**
 * Lays out a prompt and its (possibly multi-line) text on a terminal of `columns` columns that
 * wraps long rows by itself: where writing it leaves the cursor, and where the editing cursor
 * (`cursor`, an index into `text`) goes. Further lines start under the first line's text.
 */
export function layoutPrompt(options: {
  prompt: string;
  text: string;
  cursor: number;
  columns: number;
}): PromptLayout {
  const { prompt, text, columns } = options;
  const promptWidth = visibleLength(prompt);
  const indent = ' '.repeat(Math.min(promptWidth, Math.max(0, columns - 10)));
  const lines = text.split('\n');
  let row = 0;
  let cursorRow = 0;
  let cursorColumn = 0;
  let endRow = 0;
  let endColumn = 0;
  let offset = 0;
  const written: string[] = [];
  lines.forEach((line, index) => {
    const prefix = index === 0 ? prompt : indent;
    const prefixWidth = index === 0 ? promptWidth : indent.length;
    written.push(prefix + line);
    if (options.cursor >= offset && options.cursor <= offset + line.length) {
      const before = prefixWidth + visibleLength(line.slice(0, options.cursor - offset));
      cursorRow = row + Math.floor(before / columns);
      cursorColumn = before % columns;
    }
    const width = prefixWidth + visibleLength(line);
    endRow = row + Math.floor(width / columns);
    endColumn = width % columns;
    // The next line starts on a fresh row (a line that fills its last row exactly takes no more).
    row += Math.max(1, Math.ceil(width / columns));
    offset += line.length + 1;
  });
  return { written: written.join('\r\n'), endRow, endColumn, cursorRow, cursorColumn };
}
