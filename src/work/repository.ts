import path from 'node:path';
import { git } from './git.js';

/** The git repository a workspace is in, as change records need it. */
export interface Repository {
  /** The repository's top folder. */
  top: string;
  /** The workspace's path inside it, with a trailing `/` (empty at the top). */
  prefix: string;
  /** Where loose objects go (`.git/objects`, or the common one of a linked worktree). */
  objects: string;
  /** `sha1` or `sha256`. */
  format: 'sha1' | 'sha256';
}

/**
 * The repository the workspace is inside, or null when it is in none (or git is missing, or the
 * repository is bare). The workspace may be a folder inside the repository.
 */
export async function findRepository(workspaceRoot: string): Promise<Repository | null> {
  let printed: string;
  try {
    printed = (
      await git(
        ['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--show-prefix', '--git-path', 'objects'],
        { cwd: workspaceRoot },
      )
    ).toString('utf8');
  } catch {
    return null;
  }
  const [inside, top, prefix, objects] = printed.split('\n');
  if (inside !== 'true' || !top || objects === undefined) return null;
  let format: 'sha1' | 'sha256' = 'sha1';
  try {
    const said = (await git(['rev-parse', '--show-object-format'], { cwd: workspaceRoot }))
      .toString('utf8')
      .trim();
    if (said === 'sha256') format = 'sha256';
  } catch {
    // Older git: sha1 is the only format it knows.
  }
  return { top, prefix: prefix ?? '', objects: path.resolve(workspaceRoot, objects), format };
}
