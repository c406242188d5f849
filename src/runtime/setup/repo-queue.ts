import { errorMessage } from '../../util/error-message.js';
import {
  CLONE_REMOTE,
  type CloneRemote,
  clonesFolder,
  ensureClone,
  normalRemote,
  remoteCredentialsEnv,
  withoutRemoteCredentials,
} from '../../work/repo-clone.js';
import { RuntimeInputError } from './errors.js';
import { chosenStore } from './store-choice.js';

/**
 * The queue of a repository in a shared store: `repo:<remote>` (the remote as normalRemote
 * writes it, without credentials). Every machine that names the repository with `--repo` works
 * and submits to the same queue, whatever its local folders are.
 */
export function repoQueue(remote: string): string {
  try {
    return `repo:${normalRemote(remote)}`;
  } catch (error) {
    throw new RuntimeInputError(`--repo: ${errorMessage(error)}`);
  }
}

/** Where a worker works a repository: its own clone, the remote's name in it, the queue. */
export interface RepositoryPlace {
  /** The clone's folder (the worker's workspace). */
  folder: string;
  /** The remote's name in the clone, and git's environment for it (its credentials). */
  remote: CloneRemote;
  queue: string;
}

/**
 * `--repo` names a repository of a shared store's queue: it needs one (`--store`,
 * TASKWEAVE_STORE or the config's `store`); with the workspace's own SQLite file there is no
 * other machine to share the queue with.
 */
export async function requireSharedStore(options: {
  store?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<void> {
  if ((await chosenStore(options)) === undefined)
    throw new RuntimeInputError(
      '--repo needs a shared store (--store postgres://…, TASKWEAVE_STORE or "store" in your config): a repository\'s queue is shared by the machines that work it.',
    );
}

/**
 * Makes (or brings up to date) this machine's clone of the repository `--repo` names, in the
 * clones folder (`--clones`, $TASKWEAVE_CLONES, $XDG_DATA_HOME/taskweave/clones, or
 * ~/.local/share/taskweave/clones).
 */
export async function prepareRepository(options: {
  remote: string;
  clones?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<RepositoryPlace> {
  const queue = repoQueue(options.remote);
  const clones = clonesFolder({ given: options.clones, env: options.env });
  try {
    const folder = await ensureClone({ remote: options.remote, clones });
    const env = remoteCredentialsEnv(options.remote, options.env);
    return { folder, remote: { name: CLONE_REMOTE, ...(env === undefined ? {} : { env }) }, queue };
  } catch (error) {
    throw new RuntimeInputError(
      withoutRemoteCredentials(
        `--repo ${options.remote} could not be cloned or fetched into ${clones}: ${errorMessage(error)}`,
        options.remote,
      ),
    );
  }
}

/** The remote as a message may name it: without the token or password its URL may carry. */
export function shownRemote(remote: string): string {
  return withoutRemoteCredentials(remote, remote);
}
