/** A piece of a command shown for approval: plain text, an operator, or a long run of blanks. */
export type CommandSegment =
  | { kind: 'text'; text: string }
  | { kind: 'operator'; text: string }
  /** Blanks inside a line long enough to push what follows out of sight: shown as their count. */
  | { kind: 'gap'; text: string; length: number };

/** Blanks inside a line from this many on are shown as a marked gap (`␣×400`), not as space. */
export const GAP_MIN_LENGTH = 8;

/**
 * A command's preview cut into what approval cards and prompts mark: the operators the core
 * found (`&&`, `||`, `|`, `;`, `&`, `$(`, backticks…, as [start, end) spans) and long runs of
 * blanks inside a line, which could hide the rest of the line past the edge of a card.
 */
export function commandSegments(
  preview: string,
  operators: readonly [number, number][] = [],
): CommandSegment[] {
  const marks: { start: number; end: number; kind: 'operator' | 'gap' }[] = [];
  for (const [start, end] of operators) {
    if (start >= 0 && end <= preview.length && start < end) marks.push({ start, end, kind: 'operator' });
  }
  for (const match of preview.matchAll(new RegExp(`[ \\t]{${GAP_MIN_LENGTH},}`, 'g'))) {
    // Leading indentation of a line is kept as it is; blanks after other text are a gap.
    const before = preview[match.index - 1];
    if (before !== undefined && before !== '\n' && before !== '\r')
      marks.push({ start: match.index, end: match.index + match[0].length, kind: 'gap' });
  }
  marks.sort((a, b) => a.start - b.start);
  const segments: CommandSegment[] = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start < at) continue;
    if (mark.start > at) segments.push({ kind: 'text', text: preview.slice(at, mark.start) });
    const text = preview.slice(mark.start, mark.end);
    segments.push(
      mark.kind === 'gap' ? { kind: 'gap', text, length: text.length } : { kind: 'operator', text },
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
