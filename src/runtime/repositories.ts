/*
 * Face: the repositories of a shared store's queues (`--repo`) as front ends name them: the
 * queue of a remote, the clone a worker works in, the remote as shown. Loads no model SDK.
 */
export {
  prepareRepository,
  type RepositoryPlace,
  repoQueue,
  requireSharedStore,
  shownRemote,
} from './setup/repo-queue.js';
