import { constants, lstat, open, symlink } from 'node:fs/promises';
import path from 'node:path';
import { openFileConfined, openFolderConfined, Workspace } from '../tools/workspace/index.js';
import { errorMessage } from '../util/error-message.js';
import { gitOutcome } from './git.js';

/** `worktree.share` when the config names none: folders linked from the main checkout. */
export const DEFAULT_WORKTREE_SHARE = ['node_modules'];
/** `worktree.copy` when the config names none: files copied from the main checkout. */
export const DEFAULT_WORKTREE_COPY = ['.env', '.env.local'];

/** O_EXCL with O_CREAT also refuses a link put in the copy's place: nothing is written through it. */
const COPY_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** How a task worktree is set up (config `worktree`). */
export interface WorktreeSetup {
  /** A command run once per new worktree, in it (through run_command: sandboxed, approved). */
  setup?: string;
  /** Ignored folders linked from the main checkout instead of installed again. */
  share: readonly string[];
  /** Ignored files (`.env`) copied from the main checkout. */
  copy: readonly string[];
}

/** What was put in a new worktree. */
export interface SetupResult {
  linked: string[];
  copied: string[];
  /** One note per name not linked or copied because the path would go through a link or outside. */
  refused: string[];
}

/**
 * Links each `share` folder and copies each `copy` file from the main checkout's workspace into a
 * task's, when it exists there and git ignores it (a tracked file is in the worktree already).
 * A link, not a copy: one `node_modules` for every task instead of one install each. Tasks
 * then share it: an install in one task changes it for all (and for the user's checkout).
 * The names come from the repository's own config and a task may have committed links: only
 * what lies inside the main checkout is taken, never through a link, and every write into the
 * task's worktree goes through its folder opened inside it (openFolderConfined), never through a
 * link either. A name refused for that is said in `refused`.
 */
export async function setUpWorktree(options: {
  mainRoot: string;
  taskRoot: string;
  share: readonly string[];
  copy: readonly string[];
}): Promise<SetupResult> {
  const result: SetupResult = { linked: [], copied: [], refused: [] };
  const main = await Workspace.open(options.mainRoot);
  const task = await Workspace.open(options.taskRoot);
  for (const [names, kind] of [
    [options.share, 'share'],
    [options.copy, 'copy'],
  ] as const) {
    for (const name of names) {
      if (path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) continue;
      const source = path.join(main.root, name);
      const target = path.join(task.root, name);
      const sourceLink = await firstLink(main.root, name, { last: true });
      if (sourceLink !== undefined) {
        if (await exists(source))
          result.refused.push(refusal(kind, name, `${sourceLink} is a symbolic link in your checkout`));
        continue;
      }
      const info = await lstat(source).catch(() => undefined);
      if (!info || (kind === 'copy' && !info.isFile())) continue;
      const ignored = await gitOutcome(['check-ignore', '-q', '--no-index', '--', name], {
        cwd: main.root,
      });
      if (ignored.code !== 0) continue;
      const targetLink = await firstLink(task.root, name, { last: false });
      if (targetLink !== undefined) {
        result.refused.push(refusal(kind, name, `${targetLink} is a symbolic link in the task's worktree`));
        continue;
      }
      if (await exists(target)) continue;
      try {
        if (kind === 'share') {
          await linkInto(task, target, source, info.isDirectory());
          result.linked.push(name);
        } else if (await copyInto({ main, source, task, target })) result.copied.push(name);
      } catch (error) {
        result.refused.push(refusal(kind, name, errorMessage(error)));
      }
    }
  }
  return result;
}

/** The note for a name that was not linked or copied. */
function refusal(kind: 'share' | 'copy', name: string, why: string): string {
  const verb = kind === 'share' ? 'linked' : 'copied';
  return `worktree.${kind} ${name} was not ${verb}: ${why}; taskweave neither reads nor writes through a link there.`;
}

/** The first component of `name` under `root` that is a symbolic link (the last one too with `last`). */
async function firstLink(
  root: string,
  name: string,
  options: { last: boolean },
): Promise<string | undefined> {
  const parts = name.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  const checked = options.last ? parts : parts.slice(0, -1);
  for (let index = 0; index < checked.length; index++) {
    const relative = parts.slice(0, index + 1).join('/');
    const info = await lstat(path.join(root, relative)).catch(() => undefined);
    if (info === undefined) return undefined;
    if (info.isSymbolicLink()) return relative;
  }
  return undefined;
}

async function exists(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined)) !== undefined;
}

/** Makes the link `target` → `source` in its folder held open inside the task's worktree. */
async function linkInto(task: Workspace, target: string, source: string, folder: boolean): Promise<void> {
  const parent = await openFolderConfined(task, path.dirname(await task.resolveForWrite(target)), {
    purpose: 'write',
    create: true,
  });
  try {
    await symlink(source, parent.at(path.basename(target)), folder ? 'dir' : 'file');
  } finally {
    await parent.close();
  }
}

/**
 * Copies the file (bytes and mode), read without following a link, into its folder held open
 * inside the task's worktree. False when it is gone or no longer a file.
 */
async function copyInto(options: {
  main: Workspace;
  source: string;
  task: Workspace;
  target: string;
}): Promise<boolean> {
  const input = await openFileConfined(options.main, options.source, 'read');
  if (input === null) return false;
  try {
    const stats = await input.stat();
    if (!stats.isFile()) return false;
    const content = await input.readFile();
    const parent = await openFolderConfined(
      options.task,
      path.dirname(await options.task.resolveForWrite(options.target)),
      { purpose: 'write', create: true },
    );
    try {
      const output = await open(parent.at(path.basename(options.target)), COPY_FLAGS, stats.mode & 0o777);
      try {
        await output.writeFile(content);
        // The umask narrowed the mode open was given: the copy keeps the file's own.
        await output.chmod(stats.mode & 0o777);
      } finally {
        await output.close();
      }
    } finally {
      await parent.close();
    }
    return true;
  } finally {
    await input.close();
  }
}
