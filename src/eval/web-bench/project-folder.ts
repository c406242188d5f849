import { cp, mkdir, mkdtemp, readdir, rename, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../util/package-root.js';
import { hasInitTask, type WebBenchProject } from './project.js';

/** The Playwright config taskweave wraps a project's own in (Debian's chromium, no retries). */
const PLAYWRIGHT_WRAPPER = path.join(packageRoot(), 'eval', 'web-bench', 'playwright.config.cjs');
/** The name a project's own Playwright config gets beside the wrapper. */
const PROJECT_CONFIG = 'playwright.project.config.js';

/** What the agent does not get: the reference solution, the checks, the task list and the start files (given as src/). */
const HIDDEN_FROM_AGENT = new Set([
  'src',
  'src-init',
  'test',
  'tasks.jsonl',
  'tasks.yml',
  'readme.md',
  '.evalignore',
  'playwright.config.js',
  'node_modules',
]);
/** What the checks' copy leaves out: the reference solution and the start files (the agent's src/ is checked). */
const HIDDEN_FROM_CHECKS = new Set(['src', 'src-init', 'node_modules']);

/** A throwaway folder for one project run: the agent's workspace and, beside it, the checks. */
export interface ProjectFolder {
  root: string;
  /** The agent's workspace: the project's files, with src-init/ as src/ (an empty src/ for a project with an init task). */
  workspace: string;
  /** The project's files with its specs and the Playwright config, where `npm test -- N` runs. */
  harness: string;
  dispose(): Promise<void>;
}

/**
 * Lays out a project run as Web-Bench does: the agent works in `workspace/` (the project's files,
 * src-init/ copied to src/), the specs run from `harness/` against `workspace/src`
 * (EVAL_PROJECT_ROOT), so the agent never sees them. Both get a node_modules whose entries link
 * to the shared install (a folder of their own: tools write caches such as node_modules/.vite).
 */
export async function prepareProjectFolder(options: {
  project: WebBenchProject;
  install: string;
  projectConfig?: string;
}): Promise<ProjectFolder> {
  const { project } = options;
  const root = await mkdtemp(path.join(tmpdir(), `taskweave-web-bench-${project.name}-`));
  const workspace = path.join(root, 'workspace');
  const harness = path.join(root, 'harness');
  const top = (source: string) => path.relative(project.dir, source).split(path.sep)[0] ?? '';
  await cp(project.dir, workspace, {
    recursive: true,
    filter: (source) => !HIDDEN_FROM_AGENT.has(top(source)),
  });
  if (hasInitTask(project)) await mkdir(path.join(workspace, 'src'));
  else await copyStartFiles(project, workspace);
  await cp(project.dir, harness, {
    recursive: true,
    filter: (source) => !HIDDEN_FROM_CHECKS.has(top(source)),
  });
  await rename(path.join(harness, 'playwright.config.js'), path.join(harness, PROJECT_CONFIG));
  await cp(PLAYWRIGHT_WRAPPER, path.join(harness, 'playwright.config.js'));
  for (const folder of [workspace, harness])
    await linkModules(path.join(options.install, 'node_modules'), folder);
  if (options.projectConfig !== undefined) {
    await mkdir(path.join(workspace, '.taskweave'), { recursive: true });
    await cp(options.projectConfig, path.join(workspace, '.taskweave', 'config.json'));
  }
  return { root, workspace, harness, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Copies the project's src-init/ over the workspace's src/ (an empty src/ when it has none). */
export async function copyStartFiles(project: WebBenchProject, workspace: string): Promise<void> {
  const start = path.join(project.dir, 'src-init');
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  if (await exists(start)) await cp(start, path.join(workspace, 'src'), { recursive: true, force: true });
}

/** A node_modules in `folder` whose every package (and .bin) links to the shared install's. */
async function linkModules(installed: string, folder: string): Promise<void> {
  const modules = path.join(folder, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(installed))
    await symlink(path.join(installed, name), path.join(modules, name), 'dir');
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
