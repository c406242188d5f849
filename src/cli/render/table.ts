import { fitLine } from './text-wrap.js';

/** One column of a text table. */
export interface TableColumn {
  header: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
  /** The column that gives up room (its cells cut with an ellipsis) when the table is wider than `width`. */
  fit?: boolean;
}

/** One cell: its text and, optionally, how to colour it (applied after padding, so columns stay aligned). */
export interface TableCell {
  text: string;
  paint?: (text: string) => string;
}

export interface RenderTableOptions {
  columns: readonly TableColumn[];
  rows: readonly (readonly (TableCell | string)[])[];
  /** Styles the header line (e.g. dim); none by default. */
  paintHeader?: (text: string) => string;
  /** The terminal's width: the `fit` column is narrowed so that a row fits on one line. */
  width?: number;
}

const COLUMN_GAP = '  ';
/** A `fit` column never gets narrower than this (the terminal wraps then). */
const MIN_FIT_COLUMN_CHARS = 12;

/** Renders rows as aligned columns with a header line; each line ends with a newline. */
export function renderTable(options: RenderTableOptions): string {
  const rows = options.rows.map((row) =>
    row.map((cell) => (typeof cell === 'string' ? { text: cell } : cell)),
  );
  const widths = options.columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => row[index]?.text.length ?? 0)),
  );
  const fit = options.columns.findIndex((column) => column.fit);
  const total = widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP.length * (widths.length - 1);
  if (options.width !== undefined && fit >= 0 && total > options.width) {
    const narrowed = Math.max(MIN_FIT_COLUMN_CHARS, widths[fit]! - (total - options.width));
    widths[fit] = narrowed;
    for (const row of rows) {
      const cell = row[fit];
      if (cell !== undefined)
        row[fit] = { ...cell, text: fitLine(cell.text, narrowed).replace(/\s+…$/, '…') };
    }
  }
  const last = options.columns.length - 1;
  const pad = (text: string, index: number) => {
    const width = widths[index] ?? text.length;
    if (options.columns[index]?.align === 'right') return text.padStart(width);
    // The last column is not padded: trailing spaces inside a colour would outlive trimEnd.
    return index === last ? text : text.padEnd(width);
  };
  const paintHeader = options.paintHeader ?? ((text: string) => text);
  const header = paintHeader(
    options.columns.map((column, index) => pad(column.header, index)).join(COLUMN_GAP),
  );
  const lines = rows.map((row) =>
    row
      .map((cell, index) => (cell.paint ?? ((text: string) => text))(pad(cell.text, index)))
      .join(COLUMN_GAP),
  );
  return `${[header, ...lines].map((line) => line.trimEnd()).join('\n')}\n`;
}

/** The text on one line, cut to `max` characters with an ellipsis. */
export function shortenLine(text: string, max: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= max ? single : `${single.slice(0, max - 1)}…`;
}
