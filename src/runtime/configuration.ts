/*
 * Face: the app's configuration and models as front ends and eval read them before any runtime
 * opens: the config file, a model resolved from `provider:model` as the runtime resolves it
 * (the environment, the config file, a workspace's remembered model), what a run cost at the
 * configured prices, and the shape of a script model's file. Loads no model SDK.
 */
export { loadConfigFile, type TaskweaveConfig } from '../config/config-file.js';
export { resolveModel } from '../config/resolve-model.js';
export { costOf, type ModelPrice } from '../model/prices.js';
export type { ModelScriptInput } from '../model/script-schema.js';
export type { ResolvedModel } from '../model/types.js';
