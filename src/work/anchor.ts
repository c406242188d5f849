import { createHash } from 'node:crypto';
import { git } from './git.js';
import type { Repository } from './repository.js';

/** Who the anchor commits are by (they are never on a branch). */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'taskweave',
  GIT_AUTHOR_EMAIL: 'taskweave@localhost',
  GIT_COMMITTER_NAME: 'taskweave',
  GIT_COMMITTER_EMAIL: 'taskweave@localhost',
};

/**
 * The ref that keeps a workspace's checkpoint contents from git's garbage collection:
 * `refs/taskweave/checkpoints/<hash of the workspace folder>` (two workspaces in one repository
 * keep their own). Not a branch or a tag: `git branch`, `git log --all` aside, nothing shows it.
 */
export function anchorRef(root: string): string {
  return `refs/taskweave/checkpoints/${createHash('sha256').update(root).digest('hex').slice(0, 16)}`;
}

/**
 * Points the workspace's anchor ref at a commit whose tree names every content id change records
 * still need (a flat tree, one entry per id), so that `git gc` keeps them; with no id left, the
 * ref is deleted and git may collect them. The user's branches, index and HEAD are not touched.
 */
export async function anchorContents(repository: Repository, root: string, ids: Set<string>): Promise<void> {
  const ref = anchorRef(root);
  if (ids.size === 0) {
    await git(['update-ref', '-d', ref], { cwd: repository.top }).catch(() => {});
    return;
  }
  const entries = [...ids].map((id) => `100644 blob ${id}\t${id}\n`).join('');
  const tree = (await git(['mktree', '--missing'], { cwd: repository.top, input: entries }))
    .toString('utf8')
    .trim();
  const commit = (
    await git(['commit-tree', tree, '-m', 'taskweave checkpoints: the contents undo and rewind need'], {
      cwd: repository.top,
      env: IDENTITY,
    })
  )
    .toString('utf8')
    .trim();
  await git(['update-ref', ref, commit], { cwd: repository.top });
}
