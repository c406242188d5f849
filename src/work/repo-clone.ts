import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git } from './git.js';

/** The git remote of taskweave's own clone of a repository (the one `--repo` names). */
export const CLONE_REMOTE = 'origin';

/**
 * A remote as the queue knows it: the same repository however it was typed (a local path made
 * absolute, no trailing `/` or `.git`), and without the user name or password an https URL may
 * carry (the queue's name is stored in the shared database; credentials stay on each machine).
 */
export function normalRemote(remote: string, cwd: string = process.cwd()): string {
  const trimmed = remote.trim();
  if (trimmed === '') throw new Error('The repository is empty: give its remote URL (or a path to it).');
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  // scp-like `user@host:path` stays as it is (its user is an ssh login, not a secret).
  const isScp = !isUrl && /^[^/\\]+:/.test(trimmed) && !/^[a-zA-Z]:[\\/]/.test(trimmed);
  let normal = isUrl || isScp ? trimmed : path.resolve(cwd, trimmed);
  if (isUrl) {
    const url = new URL(normal);
    url.username = '';
    url.password = '';
    normal = url.toString();
  }
  return normal.replace(/\/+$/, '').replace(/\.git$/, '');
}

/**
 * `text` (a message naming the remote, or git's error, which repeats the URL) as it may be shown
 * or logged: the remote as normalRemote gives it, and the password of its URL (and its user name,
 * an access token on http(s)) hidden wherever else it stands.
 */
export function withoutRemoteCredentials(text: string, remote: string): string {
  let url: URL | undefined;
  try {
    url = new URL(remote.trim());
  } catch {
    return text;
  }
  let shown = text.replaceAll(remote, normalRemote(remote));
  const secrets = [url.password, /^https?:$/.test(url.protocol) ? url.username : ''];
  for (const secret of secrets.filter((value) => value !== '')) {
    shown = shown.replaceAll(secret, '***').replaceAll(decodeURIComponent(secret), '***');
  }
  return shown;
}

/**
 * Where a worker keeps its clones of repositories: `--clones <folder>`, else
 * `$TASKWEAVE_CLONES`, else `$XDG_DATA_HOME/taskweave/clones`, else
 * `~/.local/share/taskweave/clones`.
 */
export function clonesFolder(options: { given?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const env = options.env ?? process.env;
  if (options.given) return path.resolve(options.given);
  if (env.TASKWEAVE_CLONES) return path.resolve(env.TASKWEAVE_CLONES);
  const data = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(data, 'taskweave', 'clones');
}

/** The folder of one repository's clone: `<clones>/<first 16 hex of sha256(normal remote)>`. */
export function cloneFolderOf(remote: string, clones: string): string {
  return path.join(clones, createHash('sha256').update(normalRemote(remote)).digest('hex').slice(0, 16));
}

/**
 * The worker's own clone of a repository, made when missing (cloned into a temporary folder and
 * renamed, so a kill never leaves half a clone), else brought up to date (`git fetch`). The
 * clone's checkout is never worked in: goals work in worktrees of it, on branches pushed back.
 * Returns the clone's folder.
 */
export async function ensureClone(options: { remote: string; clones: string }): Promise<string> {
  const folder = cloneFolderOf(options.remote, options.clones);
  const exists = await stat(path.join(folder, '.git')).then(
    () => true,
    () => false,
  );
  if (exists) {
    await git(['remote', 'set-url', CLONE_REMOTE, options.remote], { cwd: folder });
    await git(['fetch', '--prune', CLONE_REMOTE], { cwd: folder });
    // The remote's default branch may have changed since the clone was made.
    await git(['remote', 'set-head', CLONE_REMOTE, '--auto'], { cwd: folder }).catch(() => undefined);
    return folder;
  }
  await mkdir(options.clones, { recursive: true });
  const temporary = `${folder}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await git(['clone', '--origin', CLONE_REMOTE, options.remote, temporary], { cwd: options.clones });
    await rename(temporary, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another worker of this machine cloned it meanwhile: theirs is as good.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return folder;
}
