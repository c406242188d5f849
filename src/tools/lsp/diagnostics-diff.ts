import { diagnosticText } from '../../events/diagnostic-text.js';
import type { FileDiagnostic } from './diagnostics.js';

/** At most this many new problems are kept per change (the event carries them, --verbose shows all). */
export const MAX_REPORTED_DIAGNOSTICS = 50;
/** The tool result names at most this many… */
export const MAX_DIAGNOSTICS_IN_RESULT = 10;
/** …in at most this many bytes. */
export const MAX_DIAGNOSTIC_BYTES_IN_RESULT = 2000;

/**
 * The problems of `after` that `before` did not have. A problem is the same one when its file,
 * severity, code and message are: an edit above it moves its line, so lines are not compared;
 * two equal problems count twice (a multiset), so a second copy of an old error is new.
 */
export function newDiagnostics(before: FileDiagnostic[], after: FileDiagnostic[]): FileDiagnostic[] {
  const remaining = new Map<string, number>();
  for (const diagnostic of before) {
    const key = identity(diagnostic);
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  const fresh: FileDiagnostic[] = [];
  for (const diagnostic of after) {
    const key = identity(diagnostic);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else fresh.push(diagnostic);
  }
  return fresh;
}

function identity(diagnostic: FileDiagnostic): string {
  return JSON.stringify([diagnostic.path, diagnostic.severity, diagnostic.code ?? '', diagnostic.message]);
}

/** Errors first, then the changed file before the others, then by file and position; capped. */
export function orderDiagnostics(diagnostics: FileDiagnostic[], changedPath: string): FileDiagnostic[] {
  const rank = (diagnostic: FileDiagnostic) =>
    (diagnostic.severity === 'error' ? 0 : 2) + (diagnostic.path === changedPath ? 0 : 1);
  return [...diagnostics]
    .sort(
      (a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
    )
    .slice(0, MAX_REPORTED_DIAGNOSTICS);
}

/** One problem on one line: `src/a.ts:3:7 error TS2322: Type …` (the front ends show the same). */
export const diagnosticLine: (diagnostic: FileDiagnostic) => string = diagnosticText;

/**
 * What the model reads after an edit: the new problems (at most MAX_DIAGNOSTICS_IN_RESULT, in
 * MAX_DIAGNOSTIC_BYTES_IN_RESULT bytes) or the note saying why there are none; empty when the
 * change introduced nothing.
 */
export function diagnosticsText(found: { diagnostics: FileDiagnostic[]; note?: string }): string {
  const { diagnostics, note } = found;
  const parts: string[] = [];
  if (diagnostics.length > 0) {
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
    const heading =
      errors > 0
        ? `The language server reports ${count(diagnostics.length, 'new problem')} after this change (${count(errors, 'error')}); fix them:`
        : `The language server reports ${count(diagnostics.length, 'new warning')} after this change:`;
    const lines: string[] = [];
    let bytes = 0;
    for (const diagnostic of diagnostics.slice(0, MAX_DIAGNOSTICS_IN_RESULT)) {
      const line = diagnosticLine(diagnostic);
      if (bytes + line.length > MAX_DIAGNOSTIC_BYTES_IN_RESULT && lines.length > 0) break;
      lines.push(
        line.length > MAX_DIAGNOSTIC_BYTES_IN_RESULT
          ? `${line.slice(0, MAX_DIAGNOSTIC_BYTES_IN_RESULT)}…`
          : line,
      );
      bytes += line.length + 1;
    }
    const more = diagnostics.length - lines.length;
    parts.push([heading, ...lines, ...(more > 0 ? [`… ${count(more, 'more problem')}`] : [])].join('\n'));
  }
  if (note !== undefined) parts.push(note);
  return parts.join('\n');
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}
