/*
 * Face: a model resolved from `provider:model` as the runtime resolves it (the environment, the
 * config file, a workspace's remembered model), for the front ends that name one before any
 * runtime opens (`eval`).
 */
export { resolveModel } from '../config/resolve-model.js';
export type { ResolvedModel } from '../model/types.js';
