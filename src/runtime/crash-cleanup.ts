import { removeLeftOverTempFiles } from '../tools/temp-files.js';
import type { Workspace } from '../tools/workspace.js';

/**
 * Tidies what a killed process left in the workspace before its work is taken up again: the
 * temporary files of atomic writes it was in the middle of. Says what it removed.
 */
export async function cleanUpAfterCrash(ctx: {
  workspace: Workspace;
  notice(text: string): void;
}): Promise<void> {
  const removed = await removeLeftOverTempFiles(ctx.workspace.root);
  if (removed.length > 0)
    ctx.notice(`removed ${removed.length} temporary file(s) a killed process left: ${removed.join(', ')}`);
}
