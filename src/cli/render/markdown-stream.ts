import { renderMarkdown } from './markdown.js';

export { renderMarkdown };

import { settledParagraphText } from './streamed-paragraph.js';
import type { Style } from './terminal.js';

/**
 * The model's streamed text rendered as markdown block by block: a block is shown once the blank
 * line after it arrives (a code block once its closing fence has), the rest when the text ends.
 * A table or a code block is never drawn half-parsed. A paragraph shows as it streams: its rows
 * that more words can no longer change (all but the last, outside open markup) are drawn at once.
 */
export class MarkdownStream {
  private pending = '';
  private shown = 0;
  /** The rows of the pending paragraph already drawn (its first rows, as they will stay). */
  private drawnRows = 0;

  /**
   * `lead`: the columns of the first row that a label written before the text takes (`[task] `
   * in front of a parallel task's text).
   */
  constructor(
    private readonly style: Style,
    private readonly width: () => number,
    private readonly lead = 0,
  ) {}

  /** Takes a piece of text; returns what can be shown now (rendered, with its line breaks). */
  push(text: string): string {
    this.pending += text;
    const end = completeBlocksEnd(this.pending);
    let shown = '';
    if (end > 0) {
      const complete = this.pending.slice(0, end);
      this.pending = this.pending.slice(end);
      shown = this.render(complete);
    }
    return shown + this.settledRows();
  }

  /** The text is over: returns the rest, rendered. */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? '' : this.render(rest);
  }

  private render(markdown: string): string {
    const rendered = this.renderBlock(markdown);
    const drawn = this.drawnRows;
    this.drawnRows = 0;
    if (rendered === '') return '';
    this.shown += 1;
    // The block's first rows (and the blank line before it) are on the screen already.
    if (drawn > 0)
      return rendered
        .split('\n')
        .slice(drawn)
        .map((row) => `\n${row}`)
        .join('');
    return (this.shown > 1 ? '\n\n' : '') + rendered;
  }

  /** The rows of the pending paragraph that more text can no longer change, not drawn yet. */
  private settledRows(): string {
    const settled = settledParagraphText(this.pending);
    if (settled.trim() === '') return '';
    const rows = this.renderBlock(settled).split('\n').slice(0, -1);
    if (rows.length <= this.drawnRows) return '';
    const fresh = rows.slice(this.drawnRows);
    const lead = this.drawnRows > 0 ? '\n' : this.shown > 0 ? '\n\n' : '';
    this.drawnRows = rows.length;
    return lead + fresh.join('\n');
  }

  private renderBlock(markdown: string): string {
    return renderMarkdown(markdown, this.style, this.width(), this.shown === 0 ? this.lead : 0);
  }
}

/** Where the complete blocks of a text end: after its last blank line outside a code fence (0: none). */
function completeBlocksEnd(text: string): number {
  let inFence = false;
  let end = 0;
  let offset = 0;
  const lines = text.split('\n');
  // The last piece has no newline yet: it is still being written.
  for (let index = 0; index < lines.length - 1; index++) {
    const line = lines[index] ?? '';
    offset += line.length + 1;
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && !continuesList(lines[index + 1])) end = offset;
  }
  return end;
}

/**
 * Whether the line after a blank one goes on a list or an indented block (a loose list's next
 * item): the blank line does not end the block then. An empty next line is not known yet.
 */
function continuesList(next: string | undefined): boolean {
  if (next === undefined || next === '') return true;
  return /^(\s+\S|\s*([-*+]|\d+[.)])\s)/.test(next);
}
