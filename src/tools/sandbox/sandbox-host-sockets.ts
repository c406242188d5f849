import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** The kernel's list of this network namespace's unix sockets: bound paths in its last column. */
const UNIX_SOCKET_TABLE = '/proc/net/unix';

/**
 * The paths of the unix sockets bound on this machine (in taskweave's network namespace) that a
 * command in the sandbox would still see: not under a folder the sandbox hides or replaces
 * (`/tmp`, `/run`…) unless under one it binds back there (the workspace), and still a socket on
 * disk (the table keeps a socket's path after its file is removed). Abstract sockets (`@name`)
 * are left out: a new network namespace has its own.
 */
export function hostSocketPaths(options: {
  hidden: readonly string[];
  boundBack: readonly string[];
  table?: string;
}): string[] {
  const table = options.table ?? readTable();
  const found = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    // Num RefCount Protocol Flags Type St Inode Path: the path is the rest of the line.
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8) continue;
    const bound = fields.slice(7).join(' ');
    if (!path.isAbsolute(bound)) continue;
    // Its real place (/var/run is often a link to /run): the hidden folders are real paths too.
    const socketPath = realPlace(bound);
    if (socketPath === undefined) continue;
    if (isUnderAny(socketPath, options.hidden) && !isUnderAny(socketPath, options.boundBack)) continue;
    if (isSocket(socketPath)) found.add(socketPath);
  }
  return [...found].sort();
}

/**
 * The bwrap arguments covering each socket with an empty file (`/dev/null`, read-only): a connect
 * there finds no socket. They go after the workspace's binds, so a socket inside it is covered too.
 */
export function coveredSocketArguments(socketPaths: readonly string[]): string[] {
  return socketPaths.flatMap((socketPath) => ['--ro-bind', '/dev/null', socketPath]);
}

function isUnderAny(file: string, folders: readonly string[]): boolean {
  return folders.some((folder) => file.startsWith(`${folder.replace(/\/+$/, '')}/`));
}

function readTable(): string {
  try {
    return readFileSync(UNIX_SOCKET_TABLE, 'utf8');
  } catch {
    return '';
  }
}

function realPlace(socketPath: string): string | undefined {
  try {
    return path.join(realpathSync(path.dirname(socketPath)), path.basename(socketPath));
  } catch {
    return undefined;
  }
}

function isSocket(socketPath: string): boolean {
  try {
    return lstatSync(socketPath).isSocket();
  } catch {
    return false;
  }
}
