/*
 * Face: the sandbox probe a command starts while the run's code still loads (see
 * setup/sandbox-ahead.ts). Light: only the probe.
 */
export { probeSandboxAhead } from './setup/sandbox-ahead.js';
