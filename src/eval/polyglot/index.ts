/*
 * The polyglot suite's face: what the eval command uses to find the exercises, check the
 * toolchains, run the suite and show its results. Other layers import this file, never a file
 * of this room.
 */
export { evaluatePolyglot } from './evaluate-polyglot.js';
export { benchmarkLanguages, discoverExercises } from './exercise.js';
export { polyglotScriptKind } from './exercise-script.js';
export { feedbackText } from './goal.js';
export { polyglotLanguage } from './languages.js';
export { POLYGLOT_COLUMNS, polyglotCells } from './polyglot-cells.js';
export { polyglotSummary } from './polyglot-summary.js';
export type { SkippedExercise } from './run-facts.js';
export { installCacheDir } from './shared-install.js';
export { type CommandVerdict, INSTALL_TIMEOUT_MS, runExerciseCommand } from './test-command.js';
export { toolchainStatus } from './toolchain.js';
