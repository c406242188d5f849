/**
 * The language-server room's face: a run's servers (`LanguageServers`), their settings, and the
 * problems a change introduced as tools and events carry them.
 */
export type { ChangeDiagnostics, DiagnosticSeverity, FileDiagnostic } from './diagnostics.js';
export { diagnosticLine, diagnosticsText } from './diagnostics-diff.js';
export { type ChangeWatch, type CommandWatch, type FilePlace, LanguageServers } from './language-servers.js';
export { NAVIGATIONS, navigate } from './navigation.js';
export {
  DEFAULT_DIAGNOSTICS_WAIT_MS,
  type LanguageServerConfig,
  type LanguageServerSettings,
} from './server-specs.js';
export { placeOf, withDiagnostics } from './with-diagnostics.js';
