import { useState } from 'react';

/** Lines shown of a long output before "N more lines" (or "N earlier lines"). */
export const SHOWN_LINES = 12;

/**
 * A block of tool output: the first lines and a button that shows the N more, or with
 * `keep="end"` the last lines (where a command's error and its latest output are) and a button
 * above them that shows the N earlier. `lineClass` colours a line (a diff's added and removed
 * lines); `className` marks the block (a command's stderr).
 */
export function CollapsedText({
  text,
  lines: givenLines,
  label,
  lineClass,
  keep = 'start',
  className,
  caption,
}: {
  label: string;
  /** A small heading shown above the block (`stderr`). */
  caption?: string;
  lineClass?: (line: string) => string | undefined;
  keep?: 'start' | 'end';
  className?: string;
} & ({ text: string; lines?: undefined } | { lines: readonly string[]; text?: undefined })) {
  const [open, setOpen] = useState(false);
  const lines = givenLines ?? (text ?? '').replace(/\n$/, '').split('\n');
  const hidden = lines.length - SHOWN_LINES;
  const shown =
    open || hidden <= 0 ? lines : keep === 'end' ? lines.slice(-SHOWN_LINES) : lines.slice(0, SHOWN_LINES);
  const toggle = hidden > 0 && (
    <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
      {open
        ? keep === 'end'
          ? 'Show fewer lines'
          : 'Show less'
        : `${hidden} ${keep === 'end' ? 'earlier' : 'more'} line${hidden === 1 ? '' : 's'}`}
    </button>
  );
  return (
    <div className={`output${className ? ` ${className}` : ''}`}>
      {caption && <span className="output-caption">{caption}</span>}
      {keep === 'end' && toggle}
      <pre title={label}>
        {shown.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
          <span key={index} className={lineClass?.(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {keep === 'start' && toggle}
    </div>
  );
}

/** The classes of a unified-diff-like view's lines (`+ ` added, `- ` removed, `@@` a hunk). */
export function diffLineClass(line: string): string | undefined {
  if (line.startsWith('+ ') || line === '+') return 'diff-add';
  if (line.startsWith('- ') || line === '-') return 'diff-remove';
  if (/^@@ .* @@$/.test(line)) return 'diff-hunk';
  return undefined;
}
