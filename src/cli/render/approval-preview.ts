import { commandSegments, gapLabel } from '../../events/command-segments.js';
import { wrapStyled } from './styled-text.js';
import type { Style } from './terminal.js';

/** How far a preview is indented under its question. */
const INDENT = '    ';

/**
 * What an approval shows on the terminal, indented under its question: a command whole, wrapped
 * to the terminal's width, its operators marked (bold yellow) and a long run of blanks inside a
 * line shown as its count (`␣×400`), so nothing can sit past the edge of the screen; a diff as it is.
 */
export function approvalPreview(options: {
  name: string;
  preview: string;
  operators?: [number, number][];
  style: Style;
  width?: number;
}): string {
  const { preview, style, width } = options;
  if (options.name !== 'run_command') return indent(preview);
  const marked = commandSegments(preview, options.operators)
    .map((segment) =>
      segment.kind === 'operator'
        ? style.enabled
          ? style.bold(style.yellow(segment.text))
          : segment.text
        : segment.kind === 'gap'
          ? style.dim(` ${gapLabel(segment.length)} `)
          : segment.text,
    )
    .join('');
  const shown = indent(marked);
  return width === undefined ? shown : wrapStyled(shown, width - 1);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `${INDENT}${line}`)
    .join('\n');
}
