/** The name of git's own folder (or, in a linked worktree or submodule, the file pointing to it). */
export const GIT_FOLDER = '.git';

/**
 * Whether a path relative to the workspace goes through a `.git` entry at any depth: a repository's
 * own folder (its config, hooks and pointers are what git runs or follows on the user's next `git`
 * command), or the `.git` file of a worktree or submodule (which says where that folder is).
 * Compared without case: on a case-insensitive file system `.GIT` is the same folder.
 */
export function isUnderGitFolder(relative: string): boolean {
  return relative.split(/[\\/]/).some((segment) => segment.toLowerCase() === GIT_FOLDER);
}

/** The refusal a file tool gives for a path inside (or at) a `.git` entry. */
export function gitPathRefusal(shown: string): string {
  return (
    `The path ${shown} is inside a ${GIT_FOLDER} folder (or is a ${GIT_FOLDER} file): git's own configuration, hooks and ` +
    `pointers, which git runs or follows on the user's next git command, so tools cannot write there. Use git ` +
    'commands (run_command: git add, git commit, git checkout…) to change a repository; if the task needs its ' +
    'configuration or hooks changed, ask the user to do it.'
  );
}
