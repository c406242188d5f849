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

/** A remote of taskweave's clone as git reaches it: its name there, and git's environment for it. */
export interface CloneRemote {
  /** The remote's name in the clone (CLONE_REMOTE). */
  name: string;
  /**
   * Given to every git command that talks to the remote: its credentials (see
   * remoteCredentialsEnv), which are never in the clone's config or in git's arguments.
   */
  env?: Record<string, string>;
}

/** The URL a clone's config keeps: an http(s) remote without its user name and password. */
export function remoteWithoutCredentials(remote: string): string {
  const url = httpUrlOf(remote);
  if (url === undefined || (url.username === '' && url.password === '')) return remote;
  url.username = '';
  url.password = '';
  return url.toString();
}

/** The environment variables the credential helper of remoteCredentialsEnv reads. */
const USERNAME_VARIABLE = 'TASKWEAVE_GIT_USERNAME';
const PASSWORD_VARIABLE = 'TASKWEAVE_GIT_PASSWORD';

/**
 * git's environment for an http(s) remote whose URL carries a user name or password (a token):
 * a credential helper for that origin alone, set through GIT_CONFIG_COUNT/KEY/VALUE (after any
 * the environment already holds), that answers with the credentials from two variables of the
 * same environment. Only git and its helper see them: not the clone's config (tasks read it),
 * not git's argv (`ps` shows it), not the environment of commands. Undefined for a remote
 * without credentials.
 */
export function remoteCredentialsEnv(
  remote: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  const url = httpUrlOf(remote);
  if (url === undefined || (url.username === '' && url.password === '')) return undefined;
  const first = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const key = `credential.${url.origin}.helper`;
  const helper = `!f() { test "$1" = get || return 0; printf 'username=%s\\npassword=%s\\n' "$${USERNAME_VARIABLE}" "$${PASSWORD_VARIABLE}"; }; f`;
  return {
    GIT_CONFIG_COUNT: String(first + 2),
    // An empty helper first: the user's other helpers are not asked for this origin.
    [`GIT_CONFIG_KEY_${first}`]: key,
    [`GIT_CONFIG_VALUE_${first}`]: '',
    [`GIT_CONFIG_KEY_${first + 1}`]: key,
    [`GIT_CONFIG_VALUE_${first + 1}`]: helper,
    [USERNAME_VARIABLE]: decodeURIComponent(url.username),
    [PASSWORD_VARIABLE]: decodeURIComponent(url.password),
  };
}

function httpUrlOf(remote: string): URL | undefined {
  try {
    const url = new URL(remote.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
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
 * Returns the clone's folder. The clone's config holds the remote's URL without credentials;
 * they go to git through its environment alone (remoteCredentialsEnv).
 */
export async function ensureClone(options: { remote: string; clones: string }): Promise<string> {
  const folder = cloneFolderOf(options.remote, options.clones);
  const url = remoteWithoutCredentials(options.remote);
  const env = remoteCredentialsEnv(options.remote);
  const exists = await stat(path.join(folder, '.git')).then(
    () => true,
    () => false,
  );
  if (exists) {
    // Also takes the credentials out of a clone an older taskweave made with them in its URL.
    await git(['remote', 'set-url', CLONE_REMOTE, url], { cwd: folder });
    await git(['fetch', '--prune', CLONE_REMOTE], { cwd: folder, ...(env === undefined ? {} : { env }) });
    // The remote's default branch may have changed since the clone was made.
    await git(['remote', 'set-head', CLONE_REMOTE, '--auto'], {
      cwd: folder,
      ...(env === undefined ? {} : { env }),
    }).catch(() => undefined);
    return folder;
  }
  await mkdir(options.clones, { recursive: true });
  const temporary = `${folder}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await git(['clone', '--origin', CLONE_REMOTE, url, temporary], {
      cwd: options.clones,
      ...(env === undefined ? {} : { env }),
    });
    await rename(temporary, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another worker of this machine cloned it meanwhile: theirs is as good.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  return folder;
}
