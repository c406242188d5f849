/*
 * Face: the app's configuration as front ends and eval read it: the config file, what a run
 * cost at the configured prices, and the shape of a script model's file. Loads no model SDK;
 * resolving a model is in models.ts.
 */
export { loadConfigFile, type TaskweaveConfig } from '../config/config-file.js';
export { costOf, type ModelPrice } from '../model/prices.js';
export type { ModelScriptInput } from '../model/script-schema.js';
