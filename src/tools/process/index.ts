/**
 * The process room's face for other layers: running a shell command, finding a program, and
 * ending the processes a killed run left behind.
 */
export { findOnPath } from './find-on-path.js';
export { markedProcesses, signalMarked } from './process-tree.js';
export { KILL_GRACE_MS, runShellCommand } from './run-shell-command.js';
