import path from 'node:path';

/** taskweave's own folder in a workspace (kept in step with tools/workspace/workspace.ts). */
const OWN_FOLDER = '.taskweave';

/** Where change records keep what is not in the database: `.taskweave/checkpoints/`. */
export function changesFolder(root: string): string {
  return path.join(root, OWN_FOLDER, 'checkpoints');
}

/** taskweave's throw-away index for snapshots of the workspace, one per run. */
export function indexFileFor(root: string, runId: string): string {
  return path.join(changesFolder(root), `index-${runId}`);
}

/** Whether a workspace-relative path (`/` separators) is one change records keep: not taskweave's or git's own. */
export function isRecordedPath(relative: string): boolean {
  const first = relative.split('/')[0]?.toLowerCase();
  return first !== OWN_FOLDER && !relative.split('/').some((segment) => segment.toLowerCase() === '.git');
}
