import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { GIT_FOLDER } from '../workspace/git-paths.js';
import { TASKWEAVE_FOLDER } from '../workspace/workspace.js';

/**
 * What in a repository's `.git` folder stays read-only in `workspace-write`: what git runs or
 * follows on the user's behalf later (the config, which can name programs and `core.hooksPath`;
 * the hooks; the pointers to another git folder). The rest (objects, refs, logs, the index, HEAD,
 * packed-refs, the merge and commit message files and their lock files) stays writable, so git
 * commands work.
 */
export const GIT_READ_ONLY = ['config', 'config.worktree', 'commondir', 'hooks'];

/** Paths inside the workspace that commands cannot change in `workspace-write`, for messages. */
export const READ_ONLY_IN_WORKSPACE = [
  `${TASKWEAVE_FOLDER}/`,
  ...GIT_READ_ONLY.map((name) => `${GIT_FOLDER}/${name}`),
];

/**
 * The bwrap arguments (after the workspace's own bind) that keep taskweave's folder and the
 * repository's git folder safe from a command in `workspace-write`:
 * - `.taskweave/` read-only, whether it exists or not: a missing one is created (empty) first, so
 *   a command cannot plant `.taskweave/config.json` for the next run. It is left in place.
 * - `.git`, when a folder, bound onto itself: as a mount point it cannot be renamed or removed
 *   (`mv .git .git-old` fails with EBUSY, so no rebuilt `.git` can take its place), and
 *   GIT_READ_ONLY inside it bound read-only. A `.git` file (a worktree or submodule's pointer)
 *   is read-only as a whole.
 * What is created in `.git` meanwhile (a `commondir` or `config.worktree` that was not there) and
 * other repositories in the workspace are checked after the command (git-config-guard).
 */
export function protectedWorkspaceArguments(workspaceRoot: string): string[] {
  const own = path.join(workspaceRoot, TASKWEAVE_FOLDER);
  const args: string[] = [];
  // Where taskweave cannot create it (a read-only disk, no permission), neither can the command.
  if (createFolder(own)) args.push('--ro-bind', own, own);
  const git = path.join(workspaceRoot, GIT_FOLDER);
  const kind = kindOf(git);
  if (kind === 'folder') {
    args.push('--bind', git, git);
    for (const name of GIT_READ_ONLY) {
      const inside = path.join(git, name);
      // Only real entries: a link would be bound at its target, leaving the link itself writable.
      if (kindOf(inside) === 'folder' || kindOf(inside) === 'file') args.push('--ro-bind', inside, inside);
    }
  } else if (kind === 'file') {
    args.push('--ro-bind', git, git);
  }
  return args;
}

/** Makes the folder unless it is there; whether it is there now. */
function createFolder(absolute: string): boolean {
  try {
    mkdirSync(absolute);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST';
  }
}

function kindOf(absolute: string): 'folder' | 'file' | 'other' | 'missing' {
  try {
    const info = lstatSync(absolute);
    if (info.isDirectory()) return 'folder';
    return info.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}
