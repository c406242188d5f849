import { mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { git, gitOutcome } from './git.js';
import { commitOf } from './goal-branch.js';

/**
 * Where task worktrees go: inside the repository's git folder, `<git-common-dir>/taskweave/
 * worktrees/<goal>/<task>`. Not in the checkout (`.taskweave/worktrees/`): there the user's own
 * tools (tsc, vitest, eslint, an editor's search) would find every file a second time per
 * task; nothing walks into `.git`, git never tracks it, and it goes with the repository.
 */
export async function worktreesFolder(top: string): Promise<string> {
  return worktreesIn(await gitCommonDir(top));
}

/** worktreesFolder of the repository whose common git folder is `commonDir`. */
export function worktreesIn(commonDir: string): string {
  return path.join(commonDir, 'taskweave', 'worktrees');
}

/** The repository's git folder shared by its worktrees (`.git` of the main checkout). */
export async function gitCommonDir(top: string): Promise<string> {
  const common = (await git(['rev-parse', '--git-common-dir'], { cwd: top })).toString('utf8').trim();
  return path.resolve(top, common);
}

/**
 * Worktree bookkeeping (add, remove, prune) one at a time per repository in this process: git
 * writes a new worktree's folder under `.git/worktrees/` in several steps, and a `prune` or
 * `list` of a parallel task reading it half-written fails ("failed to read …/commondir") or
 * removes it.
 */
const adminQueues = new Map<string, Promise<unknown>>();

function inTurn<T>(top: string, work: () => Promise<T>): Promise<T> {
  const run = (adminQueues.get(top) ?? Promise.resolve()).then(work);
  adminQueues.set(
    top,
    run.catch(() => {}),
  );
  return run;
}

/** One worktree git knows of. */
export interface WorktreeEntry {
  path: string;
  /** `refs/heads/…`, or undefined when detached. */
  branch?: string;
  head?: string;
  locked: boolean;
  /** git's own word: its folder is gone. */
  prunable: boolean;
}

/** The worktrees of a repository (`git worktree list --porcelain`), the main one first. */
export async function listWorktrees(top: string): Promise<WorktreeEntry[]> {
  const printed = (await git(['worktree', 'list', '--porcelain'], { cwd: top })).toString('utf8');
  const entries: WorktreeEntry[] = [];
  for (const block of printed.split('\n\n')) {
    const lines = block.split('\n').filter((line) => line !== '');
    const first = lines[0];
    if (!first?.startsWith('worktree ')) continue;
    const entry: WorktreeEntry = { path: first.slice('worktree '.length), locked: false, prunable: false };
    for (const line of lines.slice(1)) {
      if (line.startsWith('branch ')) entry.branch = line.slice('branch '.length);
      else if (line.startsWith('HEAD ')) entry.head = line.slice('HEAD '.length);
      else if (line === 'locked' || line.startsWith('locked ')) entry.locked = true;
      else if (line === 'prunable' || line.startsWith('prunable ')) entry.prunable = true;
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * Takes away the worktree at `folder` whatever state a killed process left it in: a lock
 * (`git worktree add` locks while it populates), a stale `index.lock`, a folder git no longer
 * knows or a registration whose folder is gone. Its branch stays.
 */
export function removeWorktree(top: string, folder: string): Promise<void> {
  return inTurn(top, () => removeNow(top, folder));
}

async function removeNow(top: string, folder: string): Promise<void> {
  const known = (await listWorktrees(top)).find((entry) => entry.path === folder);
  let forgotten = known === undefined;
  if (known) {
    if (known.locked) await gitOutcome(['worktree', 'unlock', folder], { cwd: top });
    forgotten =
      (await gitOutcome(['worktree', 'remove', '--force', '--force', folder], { cwd: top })).code === 0;
  }
  await rm(folder, { recursive: true, force: true });
  // Only when git may still list it (its removal failed; its folder is gone now): prune forgets it.
  if (!forgotten && (await listWorktrees(top)).some((entry) => entry.path === folder))
    await git(['worktree', 'prune'], { cwd: top });
  await removeRegistrations(top, folder);
}

/**
 * Removes what git keeps of the worktree at `folder` in `.git/worktrees/` when git itself does not
 * (removal and prune skip it): a registration still locked by a `git worktree add` killed before
 * it wrote the registration's `gitdir` (git no longer lists it, and never prunes a locked one), or
 * one whose `commondir` is missing (git cannot remove it). Such a registration is named for the
 * folder (its name, or its name and a number when taken); one naming another folder is left.
 */
async function removeRegistrations(top: string, folder: string): Promise<void> {
  const admin = path.join(await gitCommonDir(top), 'worktrees');
  const name = path.basename(folder);
  const entries = await readdir(admin).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(name) || !/^\d*$/.test(entry.slice(name.length))) continue;
    const registration = path.join(admin, entry);
    const pointer = await readFile(path.join(registration, 'gitdir'), 'utf8').catch(() => undefined);
    const ours =
      pointer === undefined
        ? (await readFile(path.join(registration, 'locked'), 'utf8').catch(() => '')).startsWith(
            'initializing',
          )
        : path.resolve(admin, pointer.trim()) === path.join(folder, '.git');
    if (ours) await rm(registration, { recursive: true, force: true });
  }
}

/**
 * Moves a registered worktree to `to` (`git worktree move`: a rename, and git's pointers written
 * again), unlocking it first; false when git refuses (another process took it first, or it is
 * gone). In turn with the other bookkeeping of the repository in this process.
 */
export function moveWorktree(top: string, from: string, to: string): Promise<boolean> {
  return inTurn(top, async () => {
    await mkdir(path.dirname(to), { recursive: true });
    // git refuses to move a locked worktree; asked to unlock one that is not, it only fails.
    if (await lockedWorktree(from)) await gitOutcome(['worktree', 'unlock', from], { cwd: top });
    return (await gitOutcome(['worktree', 'move', from, to], { cwd: top })).code === 0;
  });
}

/** Whether git holds a lock on the linked worktree at `folder` (read from its `.git` pointer; false when it has none). */
async function lockedWorktree(folder: string): Promise<boolean> {
  const pointer = await readFile(path.join(folder, '.git'), 'utf8').catch(() => '');
  const gitDir = /^gitdir: (.+)$/m.exec(pointer)?.[1]?.trim();
  if (!gitDir) return false;
  return (await stat(path.join(path.resolve(folder, gitDir), 'locked')).catch(() => undefined)) !== undefined;
}

/**
 * Clears what a process killed in the worktree at `folder` left: the locks of a git command cut
 * short there (`index.lock`, `HEAD.lock`, the lock of its branch's ref: nobody else works in a
 * task's worktree or on its branch) and git's lock on the worktree (`worktree add` locks while it
 * populates). Whether the worktree has an index (none when killed before its files were checked out).
 */
export async function unlockWorktree(top: string, folder: string): Promise<{ hasIndex: boolean }> {
  const dirs = await worktreeGitDirs(folder);
  if (dirs === undefined) return { hasIndex: false };
  const { gitDir, commonDir } = dirs;
  const head = await readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  const ref = /^ref: (refs\/heads\/\S+)/.exec(head)?.[1];
  for (const lock of ['index.lock', 'HEAD.lock']) await unlink(path.join(gitDir, lock)).catch(() => {});
  if (ref) await unlink(path.join(commonDir, `${ref}.lock`)).catch(() => {});
  if (await stat(path.join(gitDir, 'locked')).catch(() => undefined))
    await inTurn(top, () => gitOutcome(['worktree', 'unlock', folder], { cwd: top }));
  return { hasIndex: (await stat(path.join(gitDir, 'index')).catch(() => undefined)) !== undefined };
}

/**
 * A linked worktree's own git folder and the repository's common one: read from the `.git` file
 * git writes there (`gitdir: …`) and that folder's `commondir`, else asked of git (one process
 * fewer for each task a worktree is switched to). Undefined when git finds no repository there.
 */
async function worktreeGitDirs(folder: string): Promise<{ gitDir: string; commonDir: string } | undefined> {
  const pointer = await readFile(path.join(folder, '.git'), 'utf8').catch(() => '');
  const linked = /^gitdir: (.+)$/m.exec(pointer)?.[1]?.trim();
  if (linked) {
    const gitDir = path.resolve(folder, linked);
    const common = await readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
    if (common !== undefined && common.trim() !== '')
      return { gitDir, commonDir: path.resolve(gitDir, common.trim()) };
  }
  const said = await gitOutcome(['rev-parse', '--git-dir', '--git-common-dir'], { cwd: folder });
  if (said.code !== 0) return undefined;
  const [gitDir = '', commonDir = ''] = said.stdout
    .trim()
    .split('\n')
    .map((line) => path.resolve(folder, line));
  return { gitDir, commonDir };
}

/**
 * Registers a new worktree at `folder` on `branch` (made or moved to `start` when given, else the
 * branch as it is), then checks its files out. Registration is done in turn with the others; the
 * checkout (thousands of files: the slow part) is not, it touches only this worktree. A kill
 * between the two leaves a worktree without an index, which the pool switches again.
 */
export async function addWorktree(options: {
  top: string;
  folder: string;
  /** Left out: detached at `start` (a worktree made ahead of its task). */
  branch?: string;
  start?: string;
}): Promise<void> {
  const { top, folder, branch } = options;
  await inTurn(top, async () => {
    await removeNow(top, folder);
    const add = ['worktree', 'add', '--quiet', '--force', '--no-checkout'];
    const args =
      branch === undefined
        ? [...add, '--detach', folder, options.start ?? 'HEAD']
        : options.start !== undefined
          ? [...add, '-B', branch, folder, options.start]
          : [...add, folder, branch];
    await git(args, { cwd: top });
  });
  // `checkout --force` of HEAD: writes every file like `reset --hard` but a third faster (it
  // does not refresh the new index against the files just written).
  await git(['checkout', '--force', '--quiet'], { cwd: folder });
}

/** A whole object id (sha1 or sha256): a commit named so needs no rev-parse. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Puts an existing worktree on `branch` — made or moved to `start` when given, else the branch as
 * it is — rewriting only the files that differ (`git checkout --force`: local changes are thrown
 * away), then removes every file git does not track except `keep` (`/node_modules`, `/.env`:
 * the links and copies of worktree.share and worktree.copy; a link is removed, never followed).
 * With `keepIgnored` ignored files stay too (what a worktree.setup command made, once per
 * worktree). A worktree killed half-way through this is switched again, whatever state it is in.
 */
export async function switchWorktree(options: {
  top: string;
  folder: string;
  branch: string;
  start?: string;
  /** Paths from the worktree's top that stay (the links and copies taskweave made). */
  keep: readonly string[];
  keepIgnored: boolean;
  /** Removes what git does not track (`git clean`); false for a worktree known to hold nothing of it. */
  clean?: boolean;
}): Promise<{ commit?: string }> {
  const { folder } = options;
  await unlockWorktree(options.top, folder);
  // The start as a commit id, not a ref name: `checkout -B <branch> <ref>` checks out the files of
  // the commit the ref names when it starts but creates the branch from the name again at its end,
  // so a goal branch moved in between (another task's merge) left the new branch on the merge
  // and the files without it: the task's first commit then undid the merged task's work.
  const start =
    options.start === undefined || OBJECT_ID.test(options.start)
      ? options.start
      : await commitOf(folder, options.start);
  if (options.start !== undefined && start === undefined)
    throw new Error(`Cannot start ${options.branch}: ${options.start} names no commit.`);
  const target = start !== undefined ? ['-B', options.branch, start] : [options.branch];
  await git(['checkout', '--quiet', '--force', '--ignore-other-worktrees', ...target], { cwd: folder });
  if (options.clean !== false) {
    const keep = options.keep.flatMap((name) => ['-e', `/${name}`]);
    await git(['clean', '--quiet', '--force', '-d', ...(options.keepIgnored ? [] : ['-x']), ...keep], {
      cwd: folder,
    });
  }
  return start === undefined ? {} : { commit: start };
}

/**
 * Whether a worktree has no change git would commit (nothing modified, nothing untracked and not
 * ignored), `keep` (paths from its top: the links and copies taskweave made) left out.
 */
export async function worktreeClean(folder: string, keep: readonly string[]): Promise<boolean> {
  const excluded = keep.map((name) => `:(exclude,top,literal)${name}`);
  const status = await gitOutcome(['status', '--porcelain', '--', ':(top)', ...excluded], { cwd: folder });
  return status.code === 0 && status.stdout.trim() === '';
}

/**
 * The pathspecs that leave `names` (links and copies taskweave put in a worktree) out of a
 * commit there: only those git would add, since naming an ignored path in a pathspec makes
 * `git add` fail. A link named `node_modules` is not matched by `node_modules/` (a link is no
 * folder to git). Worked out once per worktree, not per commit.
 */
export async function commitExclusions(folder: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  // One git for all the names (on standard input): it prints those ignored (exit 1 when none is).
  const checked = await gitOutcome(['check-ignore', '-z', '--stdin'], {
    cwd: folder,
    input: names.map((name) => `${name}\0`).join(''),
  });
  let ignored: Set<string>;
  if (checked.code === 0 || checked.code === 1) ignored = new Set(checked.stdout.split('\0'));
  else {
    // A name git refuses (beyond a link) fails them all: each is asked on its own.
    ignored = new Set();
    for (const name of names)
      if ((await gitOutcome(['check-ignore', '-q', '--', name], { cwd: folder })).code === 0)
        ignored.add(name);
  }
  return names.filter((name) => !ignored.has(name)).map((name) => `:(exclude,top,literal)${name}`);
}

/**
 * Commits everything changed in a worktree on its branch (one commit: a task's checkpoint),
 * leaving out `excluded` (pathspecs from commitExclusions). Returns the commit, or undefined
 * when nothing changed. `identity`: commitIdentity's answer, asked once per goal.
 */
export async function commitWorktree(options: {
  folder: string;
  message: string;
  excluded: readonly string[];
  identity: Record<string, string>;
  /** A merge is in progress there (its conflicts resolved): committed even with no change. */
  concludeMerge?: boolean;
}): Promise<string | undefined> {
  const { folder } = options;
  // Plumbing, whose output is an id and nothing else: the index written as a tree, a commit of
  // it made on the branch's tip (and on the merged commit when a merge is concluded), the branch
  // moved to it only from the tip it was made on. The tip is read while the files are added.
  const [tree, parents] = await Promise.all([
    git(['add', '-A', '--', ':(top)', ...options.excluded], { cwd: folder }).then(() =>
      gitLine(['write-tree'], folder),
    ),
    gitLine(
      [
        'rev-parse',
        'HEAD^{commit}',
        'HEAD^{tree}',
        ...(options.concludeMerge ? ['MERGE_HEAD^{commit}'] : []),
      ],
      folder,
    ).then((printed) => {
      const [head = '', headTree = '', merged] = printed.split('\n');
      return { head, headTree, merged };
    }),
  ]);
  if (tree === parents.headTree && !options.concludeMerge) return undefined;
  const parentArgs = [parents.head, ...(parents.merged === undefined ? [] : [parents.merged])].flatMap(
    (parent) => ['-p', parent],
  );
  const commit = (
    await git(['commit-tree', tree, ...parentArgs, '-m', options.message], {
      cwd: folder,
      env: options.identity,
    })
  )
    .toString('utf8')
    .trim();
  await git(['update-ref', '-m', `commit: ${options.message}`, 'HEAD', commit, parents.head], {
    cwd: folder,
  });
  // The merge is concluded: its state goes, as `git commit` would have removed it.
  if (parents.merged !== undefined) await git(['merge', '--quit'], { cwd: folder });
  return commit;
}

/** What a git command printed, trimmed (object ids, one a line). */
async function gitLine(args: string[], cwd: string): Promise<string> {
  return (await git(args, { cwd })).toString('utf8').trim();
}

/** Whether a merge is in progress in the worktree (MERGE_HEAD), and the files it left unmerged. */
export async function mergeInProgress(folder: string): Promise<{ merging: boolean; unmerged: string[] }> {
  const head = await gitOutcome(['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'], { cwd: folder });
  if (head.code !== 0) return { merging: false, unmerged: [] };
  const listed = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd: folder });
  return {
    merging: true,
    unmerged: [
      ...new Set(
        listed
          .toString('utf8')
          .split('\0')
          .filter((name) => name !== ''),
      ),
    ],
  };
}
