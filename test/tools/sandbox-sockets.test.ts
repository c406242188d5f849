import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const bwrap = found.bwrap;

function sandbox(network: boolean): CommandSandbox {
  return { kind: 'bwrap', bwrap, mode: 'workspace-write', network };
}

/** A local daemon: acts (counts) on every request that reaches it over its unix socket. */
async function startDaemon(socketPath: string): Promise<{ server: Server; acted: () => number }> {
  let acted = 0;
  const server = createServer((socket) => {
    socket.on('data', () => {
      acted += 1;
      socket.end('done\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { server, acted: () => acted };
}

/** Connects to a unix socket, asks the daemon to act and prints its answer. */
const CLIENT = (socketPath: string) =>
  `node -e "const s = require('net').connect('${socketPath}'); s.on('connect', () => s.write('act')); s.on('data', (d) => { process.stdout.write('daemon: ' + d); s.end(); }); s.on('error', (e) => { console.error(e.code); process.exit(1); })"`;

describe('no network means no local daemons (issue 23, item 4)', () => {
  const bed = useToolTestBed();
  const folders: string[] = [];
  const servers: Server[] = [];
  const savedEnv = { ...process.env };

  beforeEach(() => {
    folders.length = 0;
    servers.length = 0;
  });
  afterEach(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
    for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
    Object.assign(process.env, savedEnv);
  });

  async function daemonIn(parent: string) {
    await mkdir(parent, { recursive: true });
    const folder = await mkdtemp(path.join(parent, 'taskweave-daemon-'));
    folders.push(folder);
    const socketPath = path.join(folder, 'daemon.sock');
    const daemon = await startDaemon(socketPath);
    servers.push(daemon.server);
    return { socketPath, ...daemon };
  }

  async function run(command: string, network: boolean) {
    return runCommandTool.run({ command }, { ...bed().ctx, sandbox: sandbox(network) });
  }

  it('a daemon listening under /run is unreachable with the network off (and reachable with it on)', async () => {
    const daemon = await daemonIn('/run');
    const offline = await run(
      `test -e ${daemon.socketPath} || echo hidden; ${CLIENT(daemon.socketPath)}`,
      false,
    );
    expect(offline.isError).toBe(true);
    // The folder is hidden, and no unix socket can be made anyway (the seccomp filter, issue 39 item 21).
    expect(offline.output).toContain('hidden');
    expect(offline.output).toMatch(/EPERM/);
    expect(daemon.acted()).toBe(0);
    const online = await run(CLIENT(daemon.socketPath), true);
    expect(online.isError, online.output).toBe(false);
    expect(online.output).toContain('daemon: done');
    expect(daemon.acted()).toBe(1);
  });

  it('hides $XDG_RUNTIME_DIR wherever it is, and drops the variables pointing at sockets', async () => {
    const runtime = await mkdtemp(path.join('/var/tmp', 'taskweave-xdg-'));
    folders.push(runtime);
    const daemon = await daemonIn(runtime);
    process.env.XDG_RUNTIME_DIR = runtime;
    process.env.SSH_AUTH_SOCK = daemon.socketPath;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${daemon.socketPath}`;
    process.env.DOCKER_HOST = 'unix:///var/run/docker.sock';
    process.env.TASKWEAVE_TEST_SOCKET = daemon.socketPath;
    process.env.TASKWEAVE_TEST_KEPT = 'kept';
    const offline = await run(
      `echo "vars: \${XDG_RUNTIME_DIR-unset} \${SSH_AUTH_SOCK-unset} \${DBUS_SESSION_BUS_ADDRESS-unset} \${DOCKER_HOST-unset} \${TASKWEAVE_TEST_SOCKET-unset} \${TASKWEAVE_TEST_KEPT-unset}"; ${CLIENT(daemon.socketPath)}`,
      false,
    );
    expect(offline.output).toContain('vars: unset unset unset unset unset kept');
    expect(offline.isError).toBe(true);
    expect(daemon.acted()).toBe(0);
  });

  it('programs on the PATH under a hidden folder stay runnable (NixOS keeps them under /run)', async () => {
    const folder = await mkdtemp(path.join('/run', 'taskweave-path-'));
    folders.push(folder);
    await mkdir(path.join(folder, 'sw/bin'), { recursive: true });
    const tool = path.join(folder, 'sw/bin/taskweave-test-tool');
    await writeFile(tool, '#!/bin/sh\necho tool ran\n');
    await chmod(tool, 0o755);
    process.env.PATH = `${path.join(folder, 'sw/bin')}:${process.env.PATH}`;
    const result = await run('taskweave-test-tool', false);
    expect(result.isError, result.output).toBe(false);
    expect(result.output).toContain('tool ran');
  });
});

describe('without network but with unix sockets (the checks of eval --suite web-bench, issue 45)', () => {
  const bed = useToolTestBed();
  const folders: string[] = [];
  const servers: Server[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0))
      await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  function run(command: string, unixSockets: boolean) {
    const local: CommandSandbox = {
      kind: 'bwrap',
      bwrap,
      mode: 'workspace-write',
      network: false,
      unixSockets,
    };
    return runCommandTool.run({ command }, { ...bed().ctx, sandbox: local });
  }

  /** A unix socket server and its client inside the sandbox, talking over a socket in the workspace. */
  const INSIDE = `node -e "const net = require('net'); const server = net.createServer((s) => s.end('inside: hello\\\\n')).listen('inside.sock', () => net.connect('inside.sock').on('data', (d) => { process.stdout.write(d); server.close(); }))"`;

  it('a unix socket made inside works; the machine’s own sockets, in a visible folder or in the workspace, stay out of reach', async () => {
    const visible = await mkdtemp(path.join('/var/tmp', 'taskweave-daemon-'));
    folders.push(visible);
    const daemons = [path.join(visible, 'daemon.sock'), path.join(bed().root, 'daemon.sock')];
    let acted = 0;
    for (const socketPath of daemons) {
      const server = createServer((socket) =>
        socket.on('data', () => {
          acted += 1;
          socket.end('done\n');
        }),
      );
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      servers.push(server);
    }
    const local = await run(`${INSIDE}; ${CLIENT(daemons[0]!)}; ${CLIENT(daemons[1]!)}`, true);
    expect(local.output).toContain('inside: hello');
    expect(local.output).not.toContain('daemon: done');
    expect(local.output.match(/ECONNREFUSED/g)).toHaveLength(2);
    expect(acted).toBe(0);
    // The agent's own no-network sandbox is as before: no unix socket at all.
    const agent = await run(INSIDE, false);
    expect(agent.isError).toBe(true);
    expect(agent.output).toMatch(/EPERM/);
  });
});
