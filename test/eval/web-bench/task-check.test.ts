import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTasks, WEB_SERVER_TRIES } from '../../../src/eval/web-bench/task-check.js';

/** An address of this machine that is not the loopback: outside the check's sandbox. */
function outsideAddress(): string {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  throw new Error('This test needs a network interface other than the loopback.');
}

/**
 * A check's `npm test`: serves a page on the loopback (EVAL_PROJECT_PORT), opens it in chromium
 * (which makes a unix socket to start), then tries the outside address; it prints what it saw.
 */
const PROBE = `
const http = require('node:http');
const net = require('node:net');
const { chromium } = require('playwright-core');
const port = Number(process.env.EVAL_PROJECT_PORT);
console.log('workers: ' + (process.env.MAX_TEST_WORKERS || 'as Playwright decides'));
const server = http.createServer((_, res) => res.end('<h1>loopback page</h1>'));
server.listen(port, '127.0.0.1', async () => {
  const browser = await chromium.launch({ executablePath: process.env.WEB_BENCH_CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  await page.goto('http://127.0.0.1:' + port + '/');
  console.log('page: ' + (await page.textContent('h1')));
  await browser.close();
  server.close();
  const socket = net.connect({ host: process.env.OUTSIDE_HOST, port: Number(process.env.OUTSIDE_PORT) });
  socket.setTimeout(5000, () => { console.log('outside: timed out'); process.exit(1); });
  socket.on('connect', () => { console.log('outside: reached'); process.exit(1); });
  socket.on('error', (error) => { console.log('outside: ' + error.code); process.exit(0); });
});
`;

describe('a Web-Bench check runs without network', () => {
  let root: string;
  let outside: Server;
  let connections = 0;

  beforeAll(async () => {
    root = await mkdtemp(path.join('/var/tmp', 'taskweave-web-bench-check-'));
    const harness = path.join(root, 'harness');
    await mkdir(path.join(root, 'workspace', 'src'), { recursive: true });
    await mkdir(harness);
    await writeFile(
      path.join(harness, 'package.json'),
      JSON.stringify({ scripts: { test: 'node probe.cjs' } }),
    );
    await writeFile(path.join(harness, 'probe.cjs'), PROBE);
    outside = createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => outside.listen(0, '0.0.0.0', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => outside.close(() => resolve()));
    await rm(root, { recursive: true, force: true });
  });

  it('chromium starts and reaches the loopback; an address outside the sandbox is unreachable', {
    timeout: 120_000,
  }, async () => {
    const address = outside.address();
    const verdict = await checkTasks({
      folder: {
        root,
        workspace: path.join(root, 'workspace'),
        harness: path.join(root, 'harness'),
        dispose: async () => {},
      },
      index: 1,
      env: {
        ...process.env,
        NODE_PATH: path.resolve(
          path.dirname(createRequire(import.meta.url).resolve('playwright-core')),
          '..',
        ),
        OUTSIDE_HOST: outsideAddress(),
        OUTSIDE_PORT: String(typeof address === 'object' && address ? address.port : 0),
      },
    });
    expect(verdict.output).toContain('page: loopback page');
    // Web-Bench sets no worker count: the project's config takes Playwright's default.
    expect(verdict.output).toContain('workers: as Playwright decides');
    expect(verdict.output).toMatch(/outside: (ENETUNREACH|EHOSTUNREACH)/);
    expect(verdict.passed, verdict.output).toBe(true);
    expect(connections).toBe(0);
  });
});

describe('a Web-Bench check does what Web-Bench’s harness does before and around the specs', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join('/var/tmp', 'taskweave-web-bench-harness-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A run folder whose harness has these scripts and files (the agent's src/ empty). */
  async function folderWith(name: string, scripts: Record<string, string>, files: Record<string, string>) {
    const folderRoot = path.join(root, name);
    const harness = path.join(folderRoot, 'harness');
    await mkdir(path.join(folderRoot, 'workspace', 'src'), { recursive: true });
    await mkdir(harness);
    await writeFile(path.join(harness, 'package.json'), JSON.stringify({ scripts }));
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(harness, file), text);
    return {
      root: folderRoot,
      workspace: path.join(folderRoot, 'workspace'),
      harness,
      dispose: async () => {},
    };
  }

  it('a project with a build script is built against the agent’s src/ first; a failed build fails the task with its output', {
    timeout: 120_000,
  }, async () => {
    const built = await folderWith(
      'built',
      { build: 'node build.cjs', test: 'node specs.cjs' },
      {
        'build.cjs': `require('fs').writeFileSync(process.env.EVAL_PROJECT_ROOT + '/built.txt', 'built for ' + process.env.EVAL_TASK);`,
        'specs.cjs': `console.log('specs see: ' + require('fs').readFileSync(process.env.EVAL_PROJECT_ROOT + '/built.txt', 'utf8'));`,
      },
    );
    const passed = await checkTasks({ folder: built, index: 2, env: process.env });
    expect(passed.output).toContain('specs see: built for task-2');
    expect(passed.passed, passed.output).toBe(true);

    const broken = await folderWith(
      'broken',
      {
        build: 'node -e "console.error(\'src/main.ts(3,1): error TS1005\'); process.exit(1)"',
        test: 'echo the specs ran',
      },
      {},
    );
    const failed = await checkTasks({ folder: broken, index: 1, env: process.env });
    expect(failed.passed).toBe(false);
    expect(failed.output).toContain('The build failed (npm run build)');
    expect(failed.output).toContain('error TS1005');
    expect(failed.output).not.toContain('the specs ran');
  });

  it('runs the specs again when the dev server did not come up, up to 3 times in all', {
    timeout: 120_000,
  }, async () => {
    // Fails with Playwright's words for a dev server that did not start, until its third run.
    const specs = `
const fs = require('fs');
const runs = Number(fs.existsSync('runs') ? fs.readFileSync('runs', 'utf8') : 0) + 1;
fs.writeFileSync('runs', String(runs));
console.log('run ' + runs);
if (runs < ${WEB_SERVER_TRIES}) { console.log('Error: Timed out waiting 60000ms from config.webServer.'); process.exit(1); }
`;
    const flaky = await folderWith('flaky', { test: 'node specs.cjs' }, { 'specs.cjs': specs });
    const verdict = await checkTasks({ folder: flaky, index: 1, env: process.env });
    expect(verdict.output).toContain(`run ${WEB_SERVER_TRIES}`);
    expect(verdict.passed, verdict.output).toBe(true);

    // A spec that fails on its own is not run again.
    const failing = await folderWith(
      'failing',
      { test: 'node specs.cjs' },
      { 'specs.cjs': `${specs.replace('config.webServer', 'expect(received)')}` },
    );
    const failed = await checkTasks({ folder: failing, index: 1, env: process.env });
    expect(failed.passed).toBe(false);
    expect(failed.output).toContain('run 1');
  });
});
