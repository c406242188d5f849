import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CLI_PATH } from '../helpers/cli.js';

/** Debian's chromium, with the flags DEVELOPERS.md names for tests. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where the tests save their screenshots (ignored by git). */
export const SCREENSHOTS = path.resolve('test-results/web');

const URL_PATTERN = /http:\/\/\S+#token=\S+/;
const START_TIMEOUT_MS = 20_000;

/** A running `taskweave serve` child process. */
export interface ServeProcess {
  url: string;
  origin: string;
  workspace: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the real `taskweave serve --model script:<file> --port 0` in a new temporary workspace,
 * with the script written there; resolves with the URL it prints. Tool calls run unasked
 * (`--approval auto`) unless the test passes its own `--approval`.
 */
export async function startServe(options: {
  script: unknown;
  args?: string[];
  /** Writes the files the workspace starts with. */
  files?: (workspace: string) => Promise<void>;
  /** A workspace an earlier server used (a restart); a new temporary one when left out. */
  workspace?: string;
  /** Extra environment for the server (XDG_CONFIG_HOME, say). */
  env?: NodeJS.ProcessEnv;
}): Promise<ServeProcess> {
  const workspace = options.workspace ?? (await mkdtemp(path.join(tmpdir(), 'taskweave-web-')));
  await options.files?.(workspace);
  const scriptFile = path.join(workspace, '..', `${path.basename(workspace)}-script.json`);
  await writeFile(scriptFile, JSON.stringify(options.script, null, 2));
  const child = spawn(
    process.execPath,
    [
      CLI_PATH,
      'serve',
      '--model',
      `script:${scriptFile}`,
      '--port',
      '0',
      '-C',
      workspace,
      ...(options.args?.includes('--approval') ? [] : ['--approval', 'auto']),
      ...(options.args ?? []),
    ],
    {
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const found = URL_PATTERN.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    origin: new URL(url).origin,
    workspace,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Launches headless chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Launches headless chromium with a real profile on disk (cookies, storage), as a user's browser keeps one. */
export function launchProfile(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
}

/** A fresh browser context at 1280×800 (or the given size) that has opened the server's URL. */
export async function openApp(
  browser: Browser,
  server: ServeProcess,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return { context, page };
}

/** Saves a screenshot as test-results/web/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Types a goal and presses Enter. */
export async function sendGoal(page: Page, goal: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.fill(goal);
  await field.press('Enter');
}

/**
 * Waits until the plan graph is fitted to its panel: `count` task nodes drawn, each inside the
 * graph's area (React Flow fits the view once it has measured the nodes, and again on a resize).
 * Polled from here: the page's policy refuses the string functions `waitForFunction` would run.
 */
export async function planFitted(page: Page, count: number): Promise<void> {
  const fitted = () =>
    page.evaluate(`(() => {
      const nodes = [...document.querySelectorAll('.task-node')];
      const flow = document.querySelector('.react-flow');
      if (nodes.length !== ${count} || flow === null) return false;
      const area = flow.getBoundingClientRect();
      return nodes.every((node) => {
        const box = node.getBoundingClientRect();
        return box.width > 0 && box.left >= area.left - 1 && box.right <= area.right + 1 &&
          box.top >= area.top - 1 && box.bottom <= area.bottom + 1;
      });
    })()`);
  await expect.poll(fitted, { timeout: 30_000, interval: 50 }).toBe(true);
}
