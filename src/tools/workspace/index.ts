/**
 * The workspace room's face for other layers: the workspace every path resolves in, and the
 * clean-up of the temp files a crashed write left.
 */

export { openFileConfined, openFolderConfined } from './confined-open.js';
export { removeLeftOverTempFiles } from './temp-files.js';
export { Workspace, WorkspaceError } from './workspace.js';
