/*
 * Face: the errors a front end tells the user as theirs to fix (the CLI exits with code 2, the
 * server answers 4xx): wrong input to the runtime, bad model configuration, a missing
 * workspace. Light: the CLI loads it only once an error happened, without the SDK or a database.
 */
export { ModelConfigError } from '../model/types.js';
export { WorkspaceError } from '../tools/workspace/index.js';
export { RuntimeInputError, type RuntimeInputErrorCode } from './setup/errors.js';
