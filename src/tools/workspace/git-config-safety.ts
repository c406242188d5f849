import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Config keys that name no program, no file to include and no hook folder: a command may leave
 * them in a repository's config. Everything else (core.fsmonitor, core.hooksPath, core.pager,
 * core.sshCommand, alias.*, filter.*, diff.*.textconv, credential.helper, include.path, …) is
 * undone when a command adds it. An allow list, so that keys git adds later are undone too.
 */
const SAFE_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|worktree|sharedrepository|quotepath|abbrev|compression|checkstat|trustctime|untrackedcache|commitgraph|multipackindex|splitindex|preloadindex)$/,
  /^extensions\.[^.]+$/,
  /^remote\..+\.(url|pushurl|fetch|push|mirror|tagopt|prune|prunetags|promisor|partialclonefilter|skipdefaultupdate|skipfetchall)$/,
  /^branch\..+\.(remote|pushremote|merge|rebase|description)$/,
  /^submodule\..+\.(url|active|branch|fetchrecursesubmodules|ignore|shallow)$/,
  /^submodule\.active$/,
  /^(user|author|committer)\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^(pull\.(rebase|ff)|push\.(default|autosetupremote)|fetch\.prune|merge\.ff|rebase\.autostash|lfs\.repositoryformatversion)$/,
];

/** How long git may take to read one config file. */
const PARSE_TIMEOUT_MS = 10_000;

/** Whether a `key=value` entry of a config is one a command may add. */
export function isSafeConfigEntry(entry: string): boolean {
  const key = entry.slice(0, entry.indexOf('='));
  // Section and key names are lowercased by git; a subsection keeps its case but is matched by `.+`.
  return SAFE_KEYS.some((pattern) => pattern.test(key.toLowerCase()));
}

/**
 * The entries of a git config file as git itself reads it (`key=value`, includes not followed),
 * or null when git cannot read it. Read by git so that no trick of the syntax reads differently
 * here and there; git runs with no config of its own and outside any repository.
 */
export async function configEntries(content: Buffer): Promise<string[] | null> {
  const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-gitconfig-'));
  try {
    const file = path.join(folder, 'config');
    await writeFile(file, content);
    const output = await new Promise<string | null>((resolve) => {
      execFile(
        'git',
        ['config', '--file', file, '--no-includes', '--list', '--null'],
        {
          cwd: folder,
          timeout: PARSE_TIMEOUT_MS,
          maxBuffer: 16 * 1024 * 1024,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_CONFIG_GLOBAL: '/dev/null',
            GIT_CEILING_DIRECTORIES: folder,
            HOME: folder,
          },
        },
        (error, stdout) => resolve(error ? null : stdout),
      );
    });
    if (output === null) return null;
    return output
      .split('\0')
      .filter(Boolean)
      .map((item) => {
        const newline = item.indexOf('\n');
        return newline === -1 ? `${item}=` : `${item.slice(0, newline)}=${item.slice(newline + 1)}`;
      });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
