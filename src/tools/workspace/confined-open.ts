import { existsSync } from 'node:fs';
import { constants, type FileHandle, lstat, mkdir, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { isUnderGitFolder } from './git-paths.js';
import { TASKWEAVE_FOLDER, type Workspace, WorkspaceError } from './workspace.js';

/**
 * Linux names what descriptor N has open at `/proc/self/fd/N`; a path through it starts at that
 * very folder, wherever it has moved, like openat(). Node has no openat(), so this stands in.
 */
const DESCRIPTOR_LINKS = '/proc/self/fd';
const hasDescriptorLinks = existsSync(DESCRIPTOR_LINKS);

const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** O_NONBLOCK: opening a named pipe to read must not wait for a writer. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** What a confined descriptor is for: writing also refuses taskweave's own folder. */
export type ConfinedPurpose = 'read' | 'write';

/**
 * A folder inside the workspace held open by descriptor: names inside it are reached through the
 * descriptor, so swapping the folder (or one above it) for a symbolic link afterwards changes
 * nothing.
 */
export interface ConfinedFolder {
  /** A path to `name` inside this very folder (not following a link at `name` is up to the caller). */
  at(name: string): string;
  /** Checks that the folder is still inside the workspace (it may have been moved since). */
  recheck(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a folder of the workspace one component at a time from the root, never following a
 * symbolic link, and checks where the opened descriptor really is. `absolute` is a path from
 * Workspace.resolve (already real): a link met on the way means the tree changed since the
 * check, and is refused. With `create`, missing folders are made on the way.
 */
export async function openFolderConfined(
  workspace: Workspace,
  absolute: string,
  options: { purpose: ConfinedPurpose; create?: boolean },
): Promise<ConfinedFolder> {
  if (!hasDescriptorLinks) return unconfinedFolder(absolute, options.create === true);
  const segments = path.relative(workspace.root, absolute).split(path.sep).filter(Boolean);
  let handle = await open(workspace.root, FOLDER_FLAGS);
  try {
    for (const [index, segment] of segments.entries()) {
      const next = await openStep(handle, segment, options.create === true).catch(async (error: unknown) => {
        const reached = path.join(workspace.root, ...segments.slice(0, index + 1));
        throw await explainOpenError(workspace, reached, error);
      });
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  const held = handle;
  const folder: ConfinedFolder = {
    at: (name) => `${DESCRIPTOR_LINKS}/${held.fd}/${name}`,
    recheck: async () => {
      await checkDescriptor(workspace, held, options.purpose, absolute);
    },
    close: () => held.close(),
  };
  try {
    await folder.recheck();
  } catch (error) {
    await held.close();
    throw error;
  }
  return folder;
}

/**
 * Opens a file of the workspace to read: its folder by descriptor (openFolderConfined), the file
 * itself without following a link, then checks where the descriptor really is. Null when the
 * file does not exist.
 */
export async function openFileConfined(
  workspace: Workspace,
  absolute: string,
  purpose: ConfinedPurpose,
): Promise<FileHandle | null> {
  try {
    if (absolute === workspace.root) return await open(absolute, READ_FLAGS);
    const folder = await openFolderConfined(workspace, path.dirname(absolute), { purpose });
    let handle: FileHandle;
    try {
      handle = await open(folder.at(path.basename(absolute)), READ_FLAGS);
    } finally {
      await folder.close();
    }
    try {
      if (hasDescriptorLinks) await checkDescriptor(workspace, handle, purpose, absolute);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw await explainOpenError(workspace, absolute, error);
  }
}

/** A link where the checked path had none means the tree changed; a file where a folder should be is said so. */
async function explainOpenError(workspace: Workspace, absolute: string, error: unknown): Promise<unknown> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return changedUnderfoot(workspace, absolute);
  if (code === 'ENOTDIR') {
    // A link opened as a folder without following it also fails with ENOTDIR.
    const now = await lstat(absolute).catch(() => null);
    if (now === null || now.isSymbolicLink() || now.isDirectory())
      return changedUnderfoot(workspace, absolute);
    return new WorkspaceError(
      `${workspace.relative(absolute)} is not a folder (a file is in the way), so the path cannot be used.`,
    );
  }
  return error;
}

/** The error for a path whose folders changed between the check and the use. */
export function changedUnderfoot(workspace: Workspace, absolute: string): WorkspaceError {
  return new WorkspaceError(
    `The path ${workspace.relative(absolute)} changed while it was being used (a folder on it was replaced, ` +
      'e.g. by a symbolic link leading elsewhere); nothing was done. Check the folder with run_command (ls -la) and try again.',
  );
}

async function openStep(parent: FileHandle, segment: string, create: boolean): Promise<FileHandle> {
  const target = `${DESCRIPTOR_LINKS}/${parent.fd}/${segment}`;
  try {
    return await open(target, FOLDER_FLAGS);
  } catch (error) {
    if (!create || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(target).catch((mkdirError: NodeJS.ErrnoException) => {
      if (mkdirError.code !== 'EEXIST') throw mkdirError;
    });
    return open(target, FOLDER_FLAGS);
  }
}

async function checkDescriptor(
  workspace: Workspace,
  handle: FileHandle,
  purpose: ConfinedPurpose,
  expected: string,
): Promise<void> {
  const real = await readlink(`${DESCRIPTOR_LINKS}/${handle.fd}`);
  const relative = path.relative(workspace.root, real);
  const outside =
    !real.startsWith('/') ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    path.isAbsolute(relative);
  const own = relative === TASKWEAVE_FOLDER || relative.startsWith(`${TASKWEAVE_FOLDER}${path.sep}`);
  const git = !outside && isUnderGitFolder(relative);
  if (outside || (purpose === 'write' && (own || git))) {
    const where = outside
      ? 'outside the workspace'
      : own
        ? `inside ${TASKWEAVE_FOLDER}/`
        : 'inside a .git folder';
    throw new WorkspaceError(
      `The path ${workspace.relative(expected)} led to ${real} when it was opened (a folder on it was replaced or moved ` +
        `while in use); that is ${where}, so it is refused and nothing was done there.`,
    );
  }
}

/** Without /proc (not Linux): plain paths, checked by Workspace.resolve only. */
async function unconfinedFolder(absolute: string, create: boolean): Promise<ConfinedFolder> {
  if (create) await mkdir(absolute, { recursive: true });
  return { at: (name) => path.join(absolute, name), recheck: async () => {}, close: async () => {} };
}
