import { copyFile, lstat, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { gitOutcome } from './git.js';

/** `worktree.share` when the config names none: folders linked from the main checkout. */
export const DEFAULT_WORKTREE_SHARE = ['node_modules'];
/** `worktree.copy` when the config names none: files copied from the main checkout. */
export const DEFAULT_WORKTREE_COPY = ['.env', '.env.local'];

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
}

/**
 * Links each `share` folder and copies each `copy` file from the main checkout's workspace into a
 * task's, when it exists there and git ignores it (a tracked file is in the worktree already).
 * A link, not a copy: one `node_modules` for every task instead of one install each. Tasks
 * then share it: an install in one task changes it for all (and for the user's checkout).
 */
export async function setUpWorktree(options: {
  mainRoot: string;
  taskRoot: string;
  share: readonly string[];
  copy: readonly string[];
}): Promise<SetupResult> {
  const result: SetupResult = { linked: [], copied: [] };
  for (const [names, kind] of [
    [options.share, 'share'],
    [options.copy, 'copy'],
  ] as const) {
    for (const name of names) {
      if (path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) continue;
      const source = path.join(options.mainRoot, name);
      const target = path.join(options.taskRoot, name);
      const info = await lstat(source).catch(() => undefined);
      if (!info || (await lstat(target).catch(() => undefined))) continue;
      const ignored = await gitOutcome(['check-ignore', '-q', '--no-index', '--', name], {
        cwd: options.mainRoot,
      });
      if (ignored.code !== 0) continue;
      await mkdir(path.dirname(target), { recursive: true });
      if (kind === 'share') {
        await symlink(source, target, info.isDirectory() ? 'dir' : 'file');
        result.linked.push(name);
      } else if (info.isFile()) {
        await copyFile(source, target);
        result.copied.push(name);
      }
    }
  }
  return result;
}
