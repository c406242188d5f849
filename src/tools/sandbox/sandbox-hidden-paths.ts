import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Folders where local daemons keep their unix sockets (the session and system D-Bus, docker, the
 * ssh, gpg and keyring agents, systemd): hidden under an empty tmpfs when the network is off, so
 * "no network" also means no local daemon to act for the command. `$XDG_RUNTIME_DIR` is added
 * from the environment.
 */
const RUNTIME_FOLDERS = ['/run', '/var/run'];

/**
 * Variables that name a socket or runtime folder: dropped with the network off (they would point
 * into a hidden folder, or at a daemon the command must not reach).
 */
const SOCKET_VARIABLES = [
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'XDG_RUNTIME_DIR',
  'WAYLAND_DISPLAY',
  'PULSE_SERVER',
  'SWAYSOCK',
  'I3SOCK',
];

/** Variables that hold a daemon's address: dropped with the network off when it is a unix socket. */
const DAEMON_HOST_VARIABLES = ['DOCKER_HOST', 'CONTAINER_HOST'];

/**
 * The real folders to hide with the network off: /run, /var/run (usually a link to /run) and
 * `$XDG_RUNTIME_DIR`, each once, only those that are folders. Never `/` itself.
 */
export function hiddenRuntimeFolders(env: NodeJS.ProcessEnv): string[] {
  const wanted = [...RUNTIME_FOLDERS, ...(env.XDG_RUNTIME_DIR ? [env.XDG_RUNTIME_DIR] : [])];
  const found = new Set<string>();
  for (const folder of wanted) {
    if (!path.isAbsolute(folder)) continue;
    try {
      const real = realpathSync(folder);
      if (real !== '/' && lstatSync(real).isDirectory()) found.add(real);
    } catch {
      // Not there: nothing to hide.
    }
  }
  // A folder inside another hidden one is hidden with it.
  return [...found].filter(
    (folder) => ![...found].some((other) => other !== folder && isUnder(folder, other)),
  );
}

/**
 * The bwrap arguments hiding the runtime folders: a tmpfs over each. A folder of the PATH inside
 * one (NixOS keeps its programs under /run/current-system) is bound back read-only, so commands
 * still find their programs.
 */
export function hiddenFolderArguments(folders: string[], env: NodeJS.ProcessEnv): string[] {
  const args: string[] = [];
  for (const folder of folders) args.push('--tmpfs', folder);
  const restored = new Set<string>();
  for (const entry of (env.PATH ?? '').split(':')) {
    if (!path.isAbsolute(entry)) continue;
    const real = realOrUndefined(entry);
    if (real === undefined) continue;
    const hidden = folders.find((folder) => isUnder(real, folder));
    if (hidden === undefined) continue;
    const top = path.join(hidden, path.relative(hidden, real).split(path.sep)[0] as string);
    if (!restored.has(top)) {
      restored.add(top);
      args.push('--ro-bind', top, top);
    }
  }
  return args;
}

/**
 * The environment without the variables that point at local daemons' sockets (when `offline`) or
 * into a hidden folder.
 */
export function withoutSocketVariables(
  env: NodeJS.ProcessEnv,
  hidden: string[],
  offline: boolean,
): NodeJS.ProcessEnv {
  if (!offline) return { ...env };
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (SOCKET_VARIABLES.includes(name)) continue;
    if (DAEMON_HOST_VARIABLES.includes(name) && /^\s*unix:/i.test(value ?? '')) continue;
    if (value !== undefined && hidden.some((folder) => pointsInto(value, folder))) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * Whether a variable's value is a path in `folder`: alone, or as a socket address (`unix:path=…`,
 * `unix://…`). Lists such as PATH are kept: a folder of them inside is bound back or empty.
 */
function pointsInto(value: string, folder: string): boolean {
  const address = /^(?:unix:\/\/|unix:(?:path=|abstract=)?)(\/[^,;]*)/i.exec(value.trim());
  const candidate = address?.[1] ?? value.trim();
  if (address === null && candidate.includes(':')) return false;
  return candidate === folder || candidate.startsWith(`${folder}/`);
}

function isUnder(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function realOrUndefined(entry: string): string | undefined {
  try {
    return realpathSync(entry);
  } catch {
    return undefined;
  }
}
