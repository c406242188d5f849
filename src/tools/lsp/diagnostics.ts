import type { DiagnosticView } from '../../events/diagnostic-text.js';

/** How bad a reported problem is; hints and information are not reported. */
export type DiagnosticSeverity = DiagnosticView['severity'];

/** One problem a language server reports, as tools and events carry it (1-based positions, path relative to the workspace). */
export type FileDiagnostic = DiagnosticView;

/** What checking a change found: the problems it introduced, and a note when none could be had. */
export interface ChangeDiagnostics {
  diagnostics: FileDiagnostic[];
  /** Why no diagnostics were gathered (the server slow, absent, crashed), said once per cause. */
  note?: string;
}
