import { type ConfinedPurpose, openFileConfined } from './confined-open.js';
import { type Workspace, WorkspaceError } from './workspace.js';

/**
 * Reads a whole regular file of the workspace through a confined descriptor (openFileConfined):
 * the bytes are those of the file inside the workspace, even when a folder on its path is
 * swapped for a link meanwhile. For the file a tool is about to change, `purpose` is `write`.
 */
export async function readFileConfined(
  workspace: Workspace,
  absolute: string,
  purpose: ConfinedPurpose = 'write',
): Promise<Buffer> {
  const handle = await openFileConfined(workspace, absolute, purpose);
  const shown = workspace.relative(absolute);
  if (handle === null) throw new WorkspaceError(`${shown} does not exist (it was removed meanwhile?).`);
  try {
    if (!(await handle.stat()).isFile()) throw new WorkspaceError(`${shown} is not a regular file.`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
