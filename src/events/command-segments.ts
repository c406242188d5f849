/**
 * A piece of a command shown for approval: plain text, an operator, a long run of blanks, or a
 * run of blank lines.
 */
export type CommandSegment =
  | { kind: 'text'; text: string }
  | { kind: 'operator'; text: string }
  /** Blanks inside a line long enough to push what follows out of sight: shown as their count. */
  | { kind: 'gap'; text: string; length: number }
  /**
   * Line breaks with nothing but blanks between them, enough to push what follows below the
   * fold: shown as their count (`↵×60`). `text` is the run itself, from the break that ends the
   * line before it to the break that starts the line after it.
   */
  | { kind: 'blank-lines'; text: string; breaks: number };

/** Blanks inside a line from this many on are shown as a marked gap (`␣×400`), not as space. */
export const GAP_MIN_LENGTH = 8;
/** Line breaks in a row (blank lines between them) from this many on are shown as their count. */
export const BLANK_LINES_MIN_BREAKS = 3;

/**
 * A command's preview cut into what approval cards and prompts mark: the operators the core
 * found (`&&`, `||`, `|`, `;`, `&`, `$(`, backticks…, as [start, end) spans) and long runs of
 * blanks inside a line, which could hide the rest of the line past the edge of a card.
 */
export function commandSegments(
  preview: string,
  operators: readonly [number, number][] = [],
): CommandSegment[] {
  const marks: { start: number; end: number; kind: 'operator' | 'gap' | 'blank-lines' }[] = [];
  for (const [start, end] of operators) {
    if (start >= 0 && end <= preview.length && start < end) marks.push({ start, end, kind: 'operator' });
  }
  for (const match of preview.matchAll(new RegExp(`[ \\t]{${GAP_MIN_LENGTH},}`, 'g'))) {
    // Leading indentation of a line is kept as it is; blanks after other text are a gap.
    const before = preview[match.index - 1];
    if (before !== undefined && before !== '\n' && before !== '\r')
      marks.push({ start: match.index, end: match.index + match[0].length, kind: 'gap' });
  }
  const blankLines = new RegExp(`\\r?\\n(?:[ \\t]*\\r?\\n){${BLANK_LINES_MIN_BREAKS - 1},}`, 'g');
  for (const match of preview.matchAll(blankLines))
    marks.push({ start: match.index, end: match.index + match[0].length, kind: 'blank-lines' });
  marks.sort((a, b) => a.start - b.start);
  const segments: CommandSegment[] = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue;
    if (mark.start > at) segments.push({ kind: 'text', text: preview.slice(at, mark.start) });
    const text = preview.slice(mark.start, mark.end);
    segments.push(
      mark.kind === 'gap'
        ? { kind: 'gap', text, length: text.length }
        : mark.kind === 'blank-lines'
          ? { kind: 'blank-lines', text, breaks: text.split('\n').length - 1 }
          : { kind: 'operator', text },
    );
    at = mark.end;
  }
  if (at < preview.length) segments.push({ kind: 'text', text: preview.slice(at) });
  return segments;
}

/** How a gap is shown: `␣×400`. */
export function gapLabel(length: number): string {
  return `␣×${length}`;
}

/** How a run of blank lines is shown: `↵×60`. */
export function blankLinesLabel(breaks: number): string {
  return `↵×${breaks}`;
}
