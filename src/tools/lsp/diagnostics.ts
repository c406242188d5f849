/** How bad a reported problem is; hints and information are not reported. */
export type DiagnosticSeverity = 'error' | 'warning';

/** One problem a language server reports, as tools and events carry it (1-based positions). */
export interface FileDiagnostic {
  /** Relative to the workspace root. */
  path: string;
  line: number;
  column: number;
  severity: DiagnosticSeverity;
  code?: string;
  message: string;
}

/** What checking a change found: the problems it introduced, and a note when none could be had. */
export interface ChangeDiagnostics {
  diagnostics: FileDiagnostic[];
  /** Why no diagnostics were gathered (the server slow, absent, crashed), said once per cause. */
  note?: string;
}
