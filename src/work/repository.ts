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
  /** The repository's common git folder (`.git`, also from a linked worktree). */
  commonDir: string;
  /** The checkout's index file (of the linked worktree the workspace is in, if it is in one). */
  index: string;
  /** `sha1` or `sha256`. */
  format: 'sha1' | 'sha256';
}

/**
 * The repository the workspace is inside, or null when it is in none (or git is missing, or the
 * repository is bare). The workspace may be a folder inside the repository. One git process.
 */
export async function findRepository(workspaceRoot: string): Promise<Repository | null> {
  let printed: string;
  try {
    printed = (
      await git(
        [
          'rev-parse',
          '--is-inside-work-tree',
          '--show-toplevel',
          '--show-prefix',
          '--git-path',
          'objects',
          '--git-common-dir',
          '--git-path',
          'index',
          '--show-object-format',
        ],
        { cwd: workspaceRoot },
      )
    ).toString('utf8');
  } catch {
    return null;
  }
  // Each path relative to the workspace; an older git that knows no --show-object-format prints it back.
  const [inside, top, prefix, objects, common, index, format] = printed.split('\n');
  if (inside !== 'true' || !top || objects === undefined || !common || !index) return null;
  return {
    top,
    prefix: prefix ?? '',
    objects: path.resolve(workspaceRoot, objects),
    commonDir: path.resolve(workspaceRoot, common),
    index: path.resolve(workspaceRoot, index),
    format: format === 'sha256' ? 'sha256' : 'sha1',
  };
}
