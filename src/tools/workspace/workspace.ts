import { readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { gitPathRefusal, isUnderGitFolder } from './git-paths.js';

/** A path a tool was given that it must not touch, or that does not exist. */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

/**
 * The folder a run works in. Every path a tool touches is resolved here, symlinks included;
 * anything that leads outside is refused with a clear error.
 */
export class Workspace {
  private constructor(readonly root: string) {}

  /** Opens a workspace at an existing folder. */
  static async open(root: string): Promise<Workspace> {
    let real: string;
    try {
      real = await realpath(path.resolve(root));
    } catch {
      throw new WorkspaceError(`The workspace folder ${root} does not exist.`);
    }
    if (!(await stat(real)).isDirectory()) throw new WorkspaceError(`The workspace ${root} is not a folder.`);
    return new Workspace(real);
  }

  /**
   * Resolves a path given by the model (relative to the root, or absolute) to an absolute path
   * inside the workspace. The target need not exist; its nearest existing ancestor is
   * resolved through symlinks so that a link pointing outside is caught.
   */
  async resolve(requested: string): Promise<string> {
    if (requested.includes('\0')) throw new WorkspaceError('The path contains a NUL character.');
    const absolute = path.resolve(this.root, requested);
    if (!this.contains(absolute)) {
      throw new WorkspaceError(
        `The path ${requested} is outside the workspace (${this.root}); only files inside it can be used.`,
      );
    }
    const real = await realpathOfNearestExisting(absolute);
    if (!this.contains(real)) {
      throw new WorkspaceError(
        `The path ${requested} leads outside the workspace through a symbolic link (to ${real}); it is refused.`,
      );
    }
    return real;
  }

  /**
   * resolve() for a path a tool will change: taskweave's own folder (`.taskweave/`: the database
   * of sessions and tasks, the project config) is refused like a path outside the workspace, also
   * when reached through a symbolic link. Overwriting it would lose the run's own record. So is
   * anything under a `.git` entry at any depth, as asked or as reached: git runs its config and hooks
   * on the user's next command.
   */
  async resolveForWrite(requested: string): Promise<string> {
    const real = await this.resolve(requested);
    const own = path.join(this.root, TASKWEAVE_FOLDER);
    if (real === own || real.startsWith(`${own}${path.sep}`)) {
      throw new WorkspaceError(
        `The path ${requested} is inside ${TASKWEAVE_FOLDER}/, taskweave's own data (its database and config); tools cannot change it.`,
      );
    }
    const asked = path.relative(this.root, path.resolve(this.root, requested));
    if (isUnderGitFolder(asked) || isUnderGitFolder(path.relative(this.root, real))) {
      throw new WorkspaceError(gitPathRefusal(requested));
    }
    return real;
  }

  /** The path relative to the root, with forward slashes, for messages and display. */
  relative(absolute: string): string {
    const relative = path.relative(this.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }

  private contains(absolute: string): boolean {
    const relative = path.relative(this.root, absolute);
    // A name such as `..notes` is inside; only `..` as a whole first segment leads out.
    const leadsOut = relative === '..' || relative.startsWith(`..${path.sep}`);
    return relative === '' || (!leadsOut && !path.isAbsolute(relative));
  }
}

/** taskweave's own folder in a workspace: tools never write there. */
export const TASKWEAVE_FOLDER = '.taskweave';

/** How many dangling symbolic links in a row are followed before the path is refused. */
const MAX_DANGLING_LINKS = 40;

async function realpathOfNearestExisting(absolute: string, linksFollowed = 0): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A dangling link does not exist for realpath, but writing through it creates its target:
      // follow it so that a link to a missing file outside the workspace is caught too.
      const target = await readlink(current).catch(() => null);
      if (target !== null) {
        if (linksFollowed >= MAX_DANGLING_LINKS) {
          throw new WorkspaceError(`The path ${absolute} goes through too many symbolic links.`);
        }
        const followed = path.resolve(path.dirname(current), target, ...missing.reverse());
        return realpathOfNearestExisting(followed, linksFollowed + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
