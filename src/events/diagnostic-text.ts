/** A problem a language server reported after a file change, as `tool_complete` carries it. */
export interface DiagnosticView {
  path: string;
  line: number;
  column: number;
  severity: 'error' | 'warning';
  code?: string;
  message: string;
}

/** How many new problems the terminal line and the web card show before "… N more". */
export const DIAGNOSTICS_PREVIEW = 3;

/** One problem on one line: `src/a.ts:3:7 error TS2322: Type …` (the model reads the same). */
export function diagnosticText(diagnostic: DiagnosticView): string {
  const code = diagnostic.code === undefined ? '' : ` ${diagnostic.code}`;
  const message = diagnostic.message.replace(/\s*\n\s*/g, ' ');
  return `${diagnostic.path}:${diagnostic.line}:${diagnostic.column} ${diagnostic.severity}${code}: ${message}`;
}

/** `2 new problems (1 error)` for the heading above them. */
export function diagnosticsHeading(diagnostics: DiagnosticView[]): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const count = `${diagnostics.length} new problem${diagnostics.length === 1 ? '' : 's'}`;
  return errors === diagnostics.length ? count : `${count} (${errors} error${errors === 1 ? '' : 's'})`;
}

/**
 * Where the part a language server added to a file change's result starts: the problems, or the
 * note why there are none (a diff view stops there).
 */
export const DIAGNOSTICS_SECTION =
  /^(The language server reports |\(No diagnostics: |\(The \S+ language server crashed)/;

/** A file change's result without what the language server added (shown apart, as a list). */
export function withoutDiagnosticsSection(result: string): string {
  const lines = result.split('\n');
  const at = lines.findIndex((line) => DIAGNOSTICS_SECTION.test(line));
  return at === -1 ? result : lines.slice(0, at).join('\n').trimEnd();
}
