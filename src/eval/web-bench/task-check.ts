import { access, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { type CommandVerdict, runExerciseCommand } from '../polyglot/index.js';
import type { ProjectFolder } from './project-folder.js';
import { writeScreenshotSpec } from './screenshot.js';

/** Debian's chromium: the browser the checks drive (Playwright downloads none here). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** How long one check (the specs of tasks 1..N, a dev server started for them) may take: Web-Bench's limit. */
export const CHECK_TIMEOUT_MS = 10 * 60_000;
/** Runs of the specs when the dev server did not come up: Web-Bench's tester tries 3 times. */
export const WEB_SERVER_TRIES = 3;
/** What Playwright prints when the dev server did not start or a page load was cut: Web-Bench runs the specs again. */
const WEB_SERVER_FAILURES = ['config.webServer', 'net::ERR_ABORTED'];

/**
 * Checks a project after task N as Web-Bench's harness does. A project with a `build` script is
 * built first (`npm run build` against the agent's `src/`; a failed build fails the task with its
 * output). Then a screenshot of the page, unless the project's `eval.screenshot` is false (into
 * the run folder's `screenshots/`; its dev server's first start also fills Vite's dependency
 * cache; its failure counts for nothing). Then `npm test -- N` in the checks' folder (its test-util runs init.spec.js and
 * task-1..N.spec.js with Playwright), against the agent's `src/` (EVAL_PROJECT_ROOT), with the
 * production timeouts (IS_EVAL_PRODUCTION), on a free port, with Playwright's default workers
 * (MAX_TEST_WORKERS unset, as Web-Bench leaves it: half the cores); run again, up to 3 times in all, when
 * the dev server did not come up. In the sandbox (the run's folder writable, the rest read-only)
 * without network: only its own loopback, where the dev server and chromium meet; unix sockets
 * are allowed there (chromium makes one to start), the machine's own covered. Exit code 0 passes.
 */
export async function checkTasks(options: {
  folder: ProjectFolder;
  index: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  const { folder } = options;
  // Chromium writes its profile and crash reports under HOME, which the sandbox keeps read-only.
  const home = path.join(folder.root, 'home');
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    EVAL: 'true',
    EVAL_PROJECT_ROOT: `${folder.workspace}/src`,
    EVAL_TASK: `task-${options.index}`,
    IS_EVAL_PRODUCTION: 'true',
    WEB_BENCH_CHROMIUM: CHROMIUM_PATH,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };
  const run = async (command: string, commandEnv: NodeJS.ProcessEnv) =>
    runExerciseCommand({
      command,
      workspace: folder.root,
      cwd: folder.harness,
      network: false,
      unixSockets: true,
      env: commandEnv,
      timeoutMs: CHECK_TIMEOUT_MS,
      signal: options.signal,
    });
  // Each run on a port of its own, again (3 times in all) when the dev server did not come up.
  const runSpecs = async (command: (port: number) => Promise<string>): Promise<CommandVerdict> => {
    let verdict: CommandVerdict | undefined;
    let spentMs = 0;
    for (let attempt = 1; attempt <= WEB_SERVER_TRIES; attempt += 1) {
      const port = await freePort();
      verdict = await run(await command(port), { ...env, EVAL_PROJECT_PORT: String(port) });
      spentMs += verdict.durationMs;
      const output = verdict.output;
      if (verdict.passed || !WEB_SERVER_FAILURES.some((failure) => output.includes(failure))) break;
      if (options.signal?.aborted) break;
    }
    return { ...(verdict as CommandVerdict), durationMs: spentMs };
  };
  const manifest = await readManifest(folder.harness);
  let spentMs = 0;
  if (manifest.build) {
    const build = await run('npm run build', env);
    spentMs += build.durationMs;
    if (!build.passed)
      return {
        passed: false,
        output: `The build failed (npm run build):\n${build.output}`,
        durationMs: spentMs,
      };
  }
  // Playwright's own runner, as `npx playwright` finds it (a project without it takes none).
  const playwright = path.join('node_modules', '.bin', 'playwright');
  if (manifest.screenshot && (await exists(path.join(folder.harness, playwright)))) {
    const file = await screenshotFile(folder.root, options.index);
    let remove = async () => {};
    const shot = await runSpecs(async (port) => {
      await remove();
      const written = await writeScreenshotSpec({
        harness: folder.harness,
        index: options.index,
        port,
        file,
        esModule: manifest.esModule,
      });
      remove = written.remove;
      return `${playwright} test ${written.spec}`;
    });
    await remove();
    spentMs += shot.durationMs;
  }
  const verdict = await runSpecs(async () => `npm test -- ${options.index}`);
  return { ...verdict, durationMs: spentMs + verdict.durationMs };
}

/** What the harness does for a project, from its package.json: build it, take a screenshot, load its specs as ES modules. */
async function readManifest(
  harness: string,
): Promise<{ build: boolean; screenshot: boolean; esModule: boolean }> {
  try {
    const manifest = JSON.parse(await readFile(path.join(harness, 'package.json'), 'utf8')) as {
      type?: unknown;
      scripts?: Record<string, unknown>;
      eval?: { screenshot?: unknown };
    };
    return {
      build: typeof manifest.scripts?.build === 'string',
      screenshot: manifest.eval?.screenshot !== false,
      esModule: manifest.type === 'module',
    };
  } catch {
    return { build: false, screenshot: true, esModule: false };
  }
}

/** A new file for task N's screenshot in the run folder's `screenshots/` (task-N.png, then task-N-2.png…). */
async function screenshotFile(root: string, index: number): Promise<string> {
  const folder = path.join(root, 'screenshots');
  await mkdir(folder, { recursive: true });
  const name = index === 0 ? 'init' : `task-${index}`;
  for (let take = 1; ; take += 1) {
    const file = path.join(folder, take === 1 ? `${name}.png` : `${name}-${take}.png`);
    if (!(await exists(file))) return file;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** A port nothing listens on now (the checks of several projects run at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
