import { useState } from 'react';

/** Lines shown of a long output before "N more lines". */
export const SHOWN_LINES = 12;

/**
 * A block of tool output: the first lines, and a button that shows the N more. `lineClass` colours
 * a line (a diff's added and removed lines).
 */
export function CollapsedText({
  text,
  label,
  lineClass,
}: {
  text: string;
  label: string;
  lineClass?: (line: string) => string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const lines = text.replace(/\n$/, '').split('\n');
  const hidden = lines.length - SHOWN_LINES;
  const shown = open || hidden <= 0 ? lines : lines.slice(0, SHOWN_LINES);
  return (
    <div className="output">
      <pre title={label}>
        {shown.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
          <span key={index} className={lineClass?.(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {hidden > 0 && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `${hidden} more line${hidden === 1 ? '' : 's'}`}
        </button>
      )}
    </div>
  );
}

/** The classes of a unified-diff-like view's lines (`+ ` added, `- ` removed). */
export function diffLineClass(line: string): string | undefined {
  if (line.startsWith('+ ') || line === '+') return 'diff-add';
  if (line.startsWith('- ') || line === '-') return 'diff-remove';
  return undefined;
}
