import {
  DIAGNOSTICS_PREVIEW,
  type DiagnosticView,
  diagnosticsHeading,
  diagnosticText,
} from '../../events/diagnostic-text.js';
import { commandOutputLines } from './command-output.js';
import { editDiffLines } from './edit-diff.js';
import type { Style } from './terminal.js';
import { plural } from './text-wrap.js';

/** A failed command shows its last lines (the error is usually there); --verbose shows all. */
export const FAILED_OUTPUT_TAIL_LINES = 8;
/** An edit's diff shows its first lines; --verbose shows all. */
export const DIFF_PREVIEW_LINES = 12;
const DETAIL_INDENT = '    ';

/** A tool call that has ended, as the renderer knows it. */
export interface EndedToolCall {
  name: string;
  args: unknown;
  ok: boolean;
  /** What the tool returned to the model (its error text for a failed call). */
  result: string;
  /** The problems a file change introduced (write_file, edit_file). */
  diagnostics?: DiagnosticView[];
}

export interface ToolDetailOptions {
  /** Show every output line and the whole diff. */
  verbose: boolean;
  style: Style;
}

/**
 * The lines shown under a tool call's line: a failed command's last output lines (all of a
 * command's output with --verbose), an edit's coloured diff. None for the other calls.
 */
export function toolDetailLines(call: EndedToolCall, options: ToolDetailOptions): string[] {
  if (call.name === 'run_command') return commandDetail(call, options);
  const diff = call.name === 'edit_file' && call.ok ? diffDetail(call, options) : [];
  return [...diff, ...diagnosticsDetail(call.diagnostics ?? [], options)];
}

/** The problems an edit introduced, under its diff: a count and the first few (--verbose: all). */
function diagnosticsDetail(diagnostics: DiagnosticView[], options: ToolDetailOptions): string[] {
  if (diagnostics.length === 0) return [];
  const { style } = options;
  const shown = options.verbose ? diagnostics : diagnostics.slice(0, DIAGNOSTICS_PREVIEW);
  const hidden = diagnostics.length - shown.length;
  return [
    `${DETAIL_INDENT}${style.yellow(`⚠ ${diagnosticsHeading(diagnostics)}`)}`,
    ...shown.map((diagnostic) => {
      const paint = diagnostic.severity === 'error' ? style.red : style.yellow;
      return `${DETAIL_INDENT}  ${paint(diagnosticText(diagnostic))}`;
    }),
    ...(hidden > 0
      ? [`${DETAIL_INDENT}  ${style.dim(`… ${plural(hidden, 'more')} (--verbose shows all)`)}`]
      : []),
  ];
}

function commandDetail(call: EndedToolCall, options: ToolDetailOptions): string[] {
  if (call.ok && !options.verbose) return [];
  const lines = commandOutputLines(call.result);
  if (lines === undefined || lines.length === 0) return [];
  const { style } = options;
  const shown = options.verbose ? lines : lines.slice(-FAILED_OUTPUT_TAIL_LINES);
  const hidden = lines.length - shown.length;
  const bar = style.dim('│ ');
  return [
    ...(hidden > 0
      ? [`${DETAIL_INDENT}${style.dim(`… ${plural(hidden, 'more line')} (--verbose shows all)`)}`]
      : []),
    ...shown.map((line) =>
      line.trim() === '' ? `${DETAIL_INDENT}${style.dim('│')}` : `${DETAIL_INDENT}${bar}${detailText(line)}`,
    ),
  ];
}

function diffDetail(call: EndedToolCall, options: ToolDetailOptions): string[] {
  const lines = editDiffLines(call.result);
  const { style } = options;
  const shown = options.verbose ? lines : lines.slice(0, DIFF_PREVIEW_LINES);
  const paint = { '-': style.red, '+': style.green, ' ': style.dim, '@': style.cyan };
  const rendered = shown.map((line) =>
    line.sign === '@'
      ? `${DETAIL_INDENT}${paint['@'](line.text)}`
      : `${DETAIL_INDENT}${paint[line.sign](`${line.sign} ${detailText(line.text)}`)}`,
  );
  const hidden = lines.length - shown.length;
  if (hidden > 0)
    rendered.push(`${DETAIL_INDENT}${style.dim(`… ${plural(hidden, 'more line')} (--verbose shows all)`)}`);
  return rendered;
}

/**
 * A detail line as printed. Long lines are left for the terminal to wrap, not cut: the end of a
 * compiler error is often the part that matters.
 */
function detailText(line: string): string {
  return line.replace(/\t/g, '  ');
}
