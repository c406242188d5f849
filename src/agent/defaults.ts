/*
 * The agent's defaults, for the runtime's own defaults and the front ends' help texts. A face of
 * its own beside index.ts: it loads no agent code, so `taskweave --help` stays light.
 */
export { DEFAULT_INPUT_TIMEOUT_MS, DEFAULT_MAX_STEPS } from './state/defaults.js';
