import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import { probeSandbox } from '../../src/tools/sandbox/index.js';
import { useToolTestBed } from '../helpers/tool-context.js';

/*
 * Issue 39 item 21: with the network off, a daemon listening on a unix socket in a folder the
 * sandbox still shows (not /run, /var/run or $XDG_RUNTIME_DIR) was reachable. A seccomp filter
 * now refuses every unix socket a command would make without network (real bubblewrap, a real
 * daemon outside the workspace); the everyday tools that talk to their children over socket
 * pairs keep working.
 */

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const bwrap = found.bwrap;

/** Connects to a unix socket, asks the daemon to act and prints its answer (or the error's code). */
const CLIENT = (socketPath: string) =>
  `node -e "const s = require('net').connect('${socketPath}'); s.on('connect', () => s.write('act')); s.on('data', (d) => { process.stdout.write('daemon: ' + d); s.end(); }); s.on('error', (e) => { console.error(e.code); process.exit(1); })"`;

describe('no network means no unix socket to a daemon outside the sandbox (issue 39 item 21)', () => {
  const bed = useToolTestBed();
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function run(command: string, network: boolean) {
    return runCommandTool.run(
      { command, timeout: 120 },
      { ...bed().ctx, sandbox: { kind: 'bwrap', bwrap, mode: 'workspace-write', network } },
    );
  }

  /** A daemon on a unix socket under /var/tmp: outside the workspace and the hidden runtime folders. */
  async function startDaemon(): Promise<{ socketPath: string; acted: () => number }> {
    const folder = await mkdtemp(path.join('/var/tmp', 'taskweave-daemon-'));
    const socketPath = path.join(folder, 'daemon.sock');
    let acted = 0;
    const server: Server = createServer((socket) => {
      socket.on('data', () => {
        acted += 1;
        socket.end('done\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanups.push(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    });
    return { socketPath, acted: () => acted };
  }

  it('the daemon is unreachable with the network off (EPERM) and reachable with it on', async () => {
    const daemon = await startDaemon();
    const offline = await run(CLIENT(daemon.socketPath), false);
    expect(offline.isError).toBe(true);
    expect(offline.output).toMatch(/EPERM/);
    expect(daemon.acted()).toBe(0);
    const online = await run(CLIENT(daemon.socketPath), true);
    expect(online.isError, online.output).toBe(false);
    expect(online.output).toContain('daemon: done');
    expect(daemon.acted()).toBe(1);
  });

  it('a datagram socket pair, whose ends could send to any path, is refused too', async () => {
    const result = await run(
      `python3 -c "import socket; socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); print('made')"`,
      false,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/PermissionError: \[Errno 1\] Operation not permitted/);
  });

  it('git, npm, node child processes and workers, TCP on loopback and Python process pools still work offline', async () => {
    await bed().write(
      'package.json',
      JSON.stringify({
        name: 'x',
        version: '1.0.0',
        scripts: { test: 'node -e "console.log(\'tests ran\')"' },
      }),
    );
    await bed().write(
      'child.cjs',
      "process.on('message', (m) => { process.send(m + 1); process.exit(); });\n",
    );
    const lines = [
      'git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m x && git log --format=%s',
      'npm test',
      `node -e "require('child_process').fork('./child.cjs').on('message', (m) => console.log('fork ipc ' + m)).send(1)"`,
      `node -e "new (require('worker_threads').Worker)('require(\\'worker_threads\\').parentPort.postMessage(7)', { eval: true }).on('message', (m) => console.log('worker ' + m))"`,
      `node -e "const n = require('net'); const s = n.createServer((c) => c.end('hi')).listen(0, '127.0.0.1', () => n.connect(s.address().port, '127.0.0.1').on('data', (d) => { console.log('tcp ' + d); process.exit(); }))"`,
      `python3 -c "from multiprocessing import Pool
if __name__ == '__main__':
    with Pool(2) as pool: print('pool', pool.map(abs, [-1, -2]))"`,
    ];
    const result = await run(lines.join(' && '), false);
    expect(result.isError, result.output).toBe(false);
    for (const expected of ['x', 'tests ran', 'fork ipc 2', 'worker 7', 'tcp hi', 'pool [1, 2]'])
      expect(result.output).toContain(expected);
  });
});
