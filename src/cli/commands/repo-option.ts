import { DEFAULT_QUEUE } from '../../runtime/defaults.js';
import { UsageError } from '../usage-error.js';

/** The help of `--repo` on the commands that take it. */
export const REPO_OPTION_HELP =
  "the repository (its git remote URL or path) whose queue in the shared store this works with: a shared store's queue belongs to a repository, not to a folder";

/**
 * The queue `--repo` names (`repo:<remote>`, after checking the store is a shared one), else the
 * `--queue` given. Both at once is a usage error.
 */
export async function repoOrQueue(options: {
  repo?: string;
  queue?: string;
  store?: string;
}): Promise<string> {
  if (options.repo === undefined) return options.queue ?? DEFAULT_QUEUE;
  if (options.queue !== undefined && options.queue !== DEFAULT_QUEUE)
    throw new UsageError(
      "--repo and --queue were both given: --repo names the repository's queue; use one of them.",
    );
  const { repoQueue, requireSharedStore } = await import('../../runtime/repositories.js');
  await requireSharedStore({ store: options.store });
  return repoQueue(options.repo);
}
