import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RuntimeInputError } from '../../runtime/index.js';
import {
  type CommandVerdict,
  INSTALL_TIMEOUT_MS,
  installCacheDir,
  runExerciseCommand,
} from '../polyglot/index.js';
import type { WebBenchProject } from './project.js';

/**
 * How a project's dependencies are installed: npm, with Playwright's browser download off (the
 * checks use Debian's chromium), `file:` packages copied in rather than linked (the checkout's
 * libraries must find their own dependencies in the install), and peer ranges not enforced
 * (Web-Bench installs with pnpm, which warns about them; npm would refuse @vitejs/plugin-vue 5
 * beside vite 7).
 */
export const WEB_BENCH_INSTALL = 'npm install --install-links --legacy-peer-deps --no-audit --no-fund';

/** Installs going on in this process, by folder: projects with the same dependencies wait for one. */
const installs = new Map<string, Promise<CommandVerdict>>();

/** A package of the checkout's `libraries/`: its folder and the workspace packages it needs. */
export interface WorkspaceLibrary {
  dir: string;
  needs: string[];
}

/** The checkout's `libraries/` packages (what `workspace:*` dependencies name), by package name. */
export async function workspaceLibraries(root: string): Promise<Map<string, WorkspaceLibrary>> {
  const dir = path.join(root, 'libraries');
  const libraries = new Map<string, WorkspaceLibrary>();
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const text = await readFile(path.join(dir, entry.name, 'package.json'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const manifest = JSON.parse(text) as {
      name?: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    if (manifest.name)
      libraries.set(manifest.name, {
        dir: path.join(dir, entry.name),
        needs: workspaceNames({ ...manifest.dependencies, ...manifest.devDependencies }),
      });
  }
  return libraries;
}

/**
 * Where a project's dependency set is installed (shared by every project with the same set), or
 * the `workspace:*` package the checkout's libraries/ lack.
 */
export async function installFolder(options: {
  project: WebBenchProject;
  libraries: Map<string, WorkspaceLibrary>;
  env: NodeJS.ProcessEnv;
}): Promise<{ folder: string; manifest: Record<string, unknown> } | { missing: string }> {
  const { dependencies, devDependencies } = options.project.manifest;
  const needed = workspaceNames({ ...dependencies, ...devDependencies });
  const missing = [...needed, ...needed.flatMap((name) => options.libraries.get(name)?.needs ?? [])].find(
    (name) => !options.libraries.has(name),
  );
  if (missing !== undefined) return { missing };
  const libraryFingerprints: string[] = [];
  for (const name of closure(needed, options.libraries))
    libraryFingerprints.push(name, await fingerprint(options.libraries.get(name)!.dir));
  const key = createHash('sha256')
    .update(JSON.stringify([WEB_BENCH_INSTALL, dependencies, devDependencies, libraryFingerprints]))
    .digest('hex')
    .slice(0, 16);
  const cache = installCacheDir(options.env);
  const base = cache === undefined ? undefined : path.join(path.dirname(cache), 'web-bench');
  if (base === undefined)
    throw new RuntimeInputError(
      'Web-Bench installs need a cache folder outside /tmp (the sandbox hides /tmp): set XDG_CACHE_HOME or HOME to one.',
    );
  return {
    folder: path.join(base, `${options.project.name}-${key}`),
    manifest: { dependencies, devDependencies },
  };
}

/**
 * Installs a project's dependencies once per set, in the sandbox with network, into the cache
 * folder: the `workspace:*` packages are copied from the checkout's libraries/ (their own
 * `workspace:*` dependencies pointed at the copies). A failed install is not kept.
 */
export async function sharedInstall(options: {
  folder: string;
  manifest: Record<string, unknown>;
  libraries: Map<string, WorkspaceLibrary>;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  let pending = installs.get(options.folder);
  if (!pending) {
    pending = installInto(options);
    installs.set(options.folder, pending);
    void pending.then((verdict) => {
      if (!verdict.passed) installs.delete(options.folder);
    });
  }
  return pending;
}

async function installInto(options: {
  folder: string;
  manifest: Record<string, unknown>;
  libraries: Map<string, WorkspaceLibrary>;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  if (await exists(path.join(options.folder, 'node_modules')))
    return { passed: true, output: 'installed before', durationMs: 0 };
  await mkdir(path.dirname(options.folder), { recursive: true });
  const staging = await mkdtemp(`${options.folder}.partial-`);
  try {
    const fields = options.manifest as Record<string, Record<string, string>>;
    const needed = closure(
      workspaceNames({ ...fields.dependencies, ...fields.devDependencies }),
      options.libraries,
    );
    for (const name of needed) {
      const copy = path.join(staging, 'libraries', libraryDir(name));
      await cp(options.libraries.get(name)!.dir, copy, {
        recursive: true,
        filter: (source) => path.basename(source) !== 'node_modules',
      });
      const manifestFile = path.join(copy, 'package.json');
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
      await writeFile(manifestFile, JSON.stringify(pointAtCopies(manifest, '..'), null, 2));
    }
    const manifest = pointAtCopies(
      { name: 'taskweave-web-bench-install', private: true, ...options.manifest },
      './libraries',
    );
    await writeFile(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const verdict = await runExerciseCommand({
      command: WEB_BENCH_INSTALL,
      workspace: staging,
      network: true,
      env: { ...options.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
      timeoutMs: INSTALL_TIMEOUT_MS * 3,
      signal: options.signal,
    });
    if (!verdict.passed) return verdict;
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

/** The dependency names whose range is `workspace:…` (pnpm's link to a package of the checkout). */
function workspaceNames(dependencies: Record<string, string>): string[] {
  return Object.entries(dependencies)
    .filter(([, range]) => range.startsWith('workspace:'))
    .map(([name]) => name);
}

/** The workspace packages and the workspace packages they depend on, in turn. */
function closure(names: string[], libraries: Map<string, WorkspaceLibrary>): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const library = libraries.get(name);
    if (seen.has(name) || library === undefined) return;
    seen.add(name);
    for (const needed of library.needs) visit(needed);
  };
  for (const name of names) visit(name);
  return [...seen];
}

/** A manifest whose `workspace:*` ranges point at the copies under `base`. */
function pointAtCopies(manifest: Record<string, unknown>, base: string): Record<string, unknown> {
  const result = { ...manifest };
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const ranges = manifest[field] as Record<string, string> | undefined;
    if (ranges === undefined) continue;
    result[field] = Object.fromEntries(
      Object.entries(ranges).map(([name, range]) => [
        name,
        range.startsWith('workspace:') ? `file:${base}/${libraryDir(name)}` : range,
      ]),
    );
  }
  return result;
}

/** The folder a workspace package's copy goes to (`@web-bench/test-util` → `web-bench__test-util`). */
function libraryDir(name: string): string {
  return name.replace(/^@/, '').replace('/', '__');
}

/** What changes a library's copy: its files' sizes and times. */
async function fingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries.sort((a, b) =>
    path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)),
  )) {
    if (!entry.isFile() || entry.parentPath.includes('node_modules')) continue;
    const file = path.join(entry.parentPath, entry.name);
    hash.update(`${path.relative(dir, file)}\u0000${await readFile(file, 'utf8')}`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
