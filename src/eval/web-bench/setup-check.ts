import { stat } from 'node:fs/promises';
import path from 'node:path';
import { findOnPath } from '../../tools/process/index.js';
import type { WebBenchProject } from './project.js';
import { CHROMIUM_PATH } from './task-check.js';

/**
 * Dependencies that fetch a binary from outside the npm registry when installed or first used:
 * a project that needs one cannot be set up where only the registry is reachable.
 */
const DOWNLOADS_OUTSIDE_NPM: Record<string, string> = {
  'mongodb-memory-server': 'mongodb-memory-server downloads a MongoDB server from fastdl.mongodb.org',
  prisma: 'prisma downloads its engines from binaries.prisma.sh',
  '@prisma/client': 'prisma downloads its engines from binaries.prisma.sh',
};

/**
 * Why a project cannot be set up on this machine, before anything is installed (undefined: it
 * can): no npm, no chromium at /usr/bin/chromium, no Playwright config or test script, a
 * dependency that downloads from outside the npm registry (TASKWEAVE_WEB_BENCH_DOWNLOADS=1 lifts
 * the last, on a machine that reaches the wider network).
 */
export async function setupProblem(options: {
  project: WebBenchProject;
  env: NodeJS.ProcessEnv;
}): Promise<string | undefined> {
  const { project, env } = options;
  if (findOnPath('npm', env.PATH ?? '') === undefined) return 'npm: not found';
  if (!(await isFile(CHROMIUM_PATH))) return `${CHROMIUM_PATH}: not found (Debian: apt install chromium)`;
  if (!(await isFile(path.join(project.dir, 'playwright.config.js')))) return 'no playwright.config.js';
  if (project.manifest.scripts.test === undefined) return 'no test script in package.json';
  if (project.tasks.length === 0) return 'no tasks';
  if (project.manifest.eval?.stable === false)
    return 'marked not stable in Web-Bench (eval.stable: false in its package.json)';
  const { dependencies, devDependencies } = project.manifest;
  for (const name of Object.keys({ ...dependencies, ...devDependencies })) {
    const why = DOWNLOADS_OUTSIDE_NPM[name];
    if (why !== undefined && env.TASKWEAVE_WEB_BENCH_DOWNLOADS !== '1')
      return `${why} (only the npm registry is reachable here; TASKWEAVE_WEB_BENCH_DOWNLOADS=1 tries anyway)`;
  }
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
