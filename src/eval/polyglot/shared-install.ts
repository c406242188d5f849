import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { PolyglotLanguage } from './languages.js';
import { type CommandVerdict, INSTALL_TIMEOUT_MS, runExerciseCommand } from './test-command.js';

/** The fields of a package.json that decide what `npm install` puts in node_modules. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** Installs going on in this process, by folder: exercises with the same dependencies wait for one. */
const installs = new Map<string, Promise<CommandVerdict>>();

/** The sandbox gives every command a private /tmp: a link into the real one points at nothing there. */
const SANDBOX_PRIVATE_TMP = '/tmp';

/**
 * Where installs of the exercises' dependencies are kept between evals: `$XDG_CACHE_HOME` (else
 * `~/.cache`) `/taskweave/polyglot`, the first of the two not under /tmp (CI often points
 * XDG_CACHE_HOME there). Undefined when both are: each workspace then installs its own.
 */
export function installCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const bases = [env.XDG_CACHE_HOME, path.join(env.HOME || homedir(), '.cache')];
  for (const base of bases) {
    if (!base) continue;
    const folder = path.resolve(base, 'taskweave', 'polyglot');
    const relative = path.relative(SANDBOX_PRIVATE_TMP, folder);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return folder;
  }
  return undefined;
}

/**
 * Gives the workspace its dependencies as Aider's benchmark does: installed once per set of
 * dependencies (the 49 JavaScript exercises share one), in the sandbox with network, into the
 * cache folder, and linked into the workspace (`node_modules` → the cached one, read-only to the
 * agent's commands). A failed install is not kept. Without a cache folder the sandbox sees
 * (installCacheDir), the install is made in the workspace itself.
 */
export async function linkSharedInstall(options: {
  language: PolyglotLanguage;
  workspace: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  const { language, workspace, env } = options;
  const install = language.install!;
  const cache = installCacheDir(env);
  if (cache === undefined)
    return runExerciseCommand({
      command: install.command,
      workspace,
      network: true,
      env,
      timeoutMs: INSTALL_TIMEOUT_MS,
      signal: options.signal,
    });
  const manifest = JSON.parse(await readFile(path.join(workspace, install.installWhen), 'utf8')) as Record<
    string,
    unknown
  >;
  const dependencies = Object.fromEntries(DEPENDENCY_FIELDS.map((field) => [field, manifest[field] ?? {}]));
  const key = createHash('sha256')
    .update(JSON.stringify([install.command, dependencies]))
    .digest('hex')
    .slice(0, 16);
  const folder = path.join(cache, `${language.name}-${key}`);
  let pending = installs.get(folder);
  if (!pending) {
    pending = installInto({
      folder,
      command: install.command,
      manifest: dependencies,
      env,
      signal: options.signal,
    });
    installs.set(folder, pending);
    void pending.then((verdict) => {
      if (!verdict.passed) installs.delete(folder);
    });
  }
  const verdict = await pending;
  if (verdict.passed)
    await symlink(path.join(folder, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');
  return verdict;
}

async function installInto(options: {
  folder: string;
  command: string;
  manifest: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  if (await exists(path.join(options.folder, 'node_modules')))
    return { passed: true, output: 'installed before', durationMs: 0 };
  await mkdir(path.dirname(options.folder), { recursive: true });
  const staging = await mkdtemp(`${options.folder}.partial-`);
  try {
    const manifest = { name: 'taskweave-polyglot-install', private: true, ...options.manifest };
    await writeFile(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const verdict = await runExerciseCommand({
      command: options.command,
      workspace: staging,
      network: true,
      env: options.env,
      timeoutMs: INSTALL_TIMEOUT_MS,
      signal: options.signal,
    });
    if (!verdict.passed) return verdict;
    // npm makes no node_modules for a package without dependencies; the link needs one.
    await mkdir(path.join(staging, 'node_modules'), { recursive: true });
    // Another process may have finished the same install first: its folder stays.
    await rename(staging, options.folder).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(path.join(options.folder, 'node_modules')))) throw error;
    });
    return verdict;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
