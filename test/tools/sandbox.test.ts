import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const bwrap = found.bwrap;

function sandbox(options: Partial<Extract<CommandSandbox, { kind: 'bwrap' }>> = {}): CommandSandbox {
  return { kind: 'bwrap', bwrap, mode: 'workspace-write', network: false, ...options };
}

describe('run_command in the sandbox (bubblewrap)', () => {
  const bed = useToolTestBed();
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function run(command: string, box = sandbox()) {
    return runCommandTool.run({ command }, { ...bed().ctx, sandbox: box });
  }

  it('lets a command write in the workspace', async () => {
    const result = await run('mkdir -p out && echo built > out/result.txt');
    expect(result.isError, result.output).toBe(false);
    expect(await bed().read('out/result.txt')).toBe('built\n');
  });

  it('refuses a write outside the workspace, and tells the model why', async () => {
    // Not under /tmp, which the sandbox replaces with a private one.
    const outside = await mkdtemp(path.join('/var/tmp', 'taskweave-outside-'));
    try {
      const target = path.join(outside, 'escaped.txt');
      const result = await run(`echo x > ${target}`);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/Read-only file system/);
      expect(result.output).toMatch(/Sandbox: .*only the workspace and a private \/tmp are writable/);
      expect(existsSync(target)).toBe(false);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('does not let a command reach the real /tmp (the test bed folder next to the workspace)', async () => {
    const target = path.join(bed().outside, 'escaped.txt');
    expect((await run(`echo x > ${target}`)).isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a write through a symbolic link that leads out of the workspace', async () => {
    await symlink(bed().outside, path.join(bed().root, 'link'));
    const result = await run('echo x > link/escaped.txt');
    expect(result.isError).toBe(true);
    expect(existsSync(path.join(bed().outside, 'escaped.txt'))).toBe(false);
  });

  it('keeps .taskweave/, .git/hooks and .git/config read-only inside the workspace', async () => {
    await bed().write('.taskweave/taskweave.db', 'db');
    await bed().write('.git/hooks/pre-commit', '#!/bin/sh\n');
    await bed().write('.git/config', '[core]\n');
    for (const file of ['.taskweave/taskweave.db', '.git/hooks/pre-commit', '.git/config']) {
      const result = await run(`echo changed > ${file}`);
      expect(result.isError, file).toBe(true);
    }
    expect(await bed().read('.taskweave/taskweave.db')).toBe('db');
    expect(await bed().read('.git/hooks/pre-commit')).toBe('#!/bin/sh\n');
    // The rest of .git stays writable: commits work.
    expect((await run('echo ref > .git/HEAD')).isError).toBe(false);
  });

  it('keeps .taskweave/ read-only when it does not exist: no config can be planted for the next run (issue 23, item 2)', async () => {
    const result = await run(
      `mkdir -p .taskweave; echo '{"model": "script:.tw/evil.json"}' > .taskweave/config.json; rm -rf .taskweave; mkdir .taskweave && touch .taskweave/config.json`,
    );
    expect(result.isError).toBe(true);
    expect(existsSync(path.join(bed().root, '.taskweave/config.json'))).toBe(false);
    // It is left in place, empty, so that later commands find it read-only too.
    expect(readdirSync(path.join(bed().root, '.taskweave'))).toEqual([]);
    // Renaming the workspace's folders around it does not help either.
    const moved = await run('mv .taskweave .tw-old; mkdir -p .taskweave && touch .taskweave/config.json');
    expect(moved.isError).toBe(true);
    expect(existsSync(path.join(bed().root, '.taskweave/config.json'))).toBe(false);
  });

  it('ends what a command started in the background when the command ends (its own PID namespace)', async () => {
    const token = `300.${process.pid}${Date.now() % 100_000}`;
    const result = await run(`nohup sleep ${token} > /dev/null 2>&1 & echo started`);
    expect(result.output).toContain('started');
    const running = () =>
      readdirSync('/proc').filter((entry) => {
        try {
          return readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${token}\0`;
        } catch {
          return false;
        }
      });
    const deadline = Date.now() + 3_000;
    while (running().length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running()).toEqual([]);
  });

  it('gives the command a private /tmp', async () => {
    const name = `taskweave-sandbox-${process.pid}-${Date.now()}`;
    const result = await run(`echo inside > /tmp/${name} && cat /tmp/${name}`);
    expect(result.isError, result.output).toBe(false);
    expect(result.output).toContain('inside');
    expect(existsSync(path.join('/tmp', name))).toBe(false);
  });

  it('cuts the network off: a server on 127.0.0.1 is unreachable, and the model is told why', async () => {
    const script = `fetch('${url}').then(async (r) => console.log(await r.text())).catch((e) => { console.error('failed:', e.cause?.code ?? e.message); process.exit(1); })`;
    const offline = await run(`node -e "${script}"`);
    expect(offline.isError).toBe(true);
    expect(offline.output).toMatch(/ECONNREFUSED|ENETUNREACH/);
    expect(offline.output).toMatch(/without network access.*--network/);
    const online = await run(`node -e "${script}"`, sandbox({ network: true }));
    expect(online.isError, online.output).toBe(false);
    expect(online.output).toContain('reached');
  });

  it('read-only: the workspace cannot be changed either', async () => {
    await bed().write('a.txt', 'original');
    const result = await run('echo changed > a.txt', sandbox({ mode: 'read-only' }));
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/the sandbox is read-only/);
    expect(await bed().read('a.txt')).toBe('original');
    expect((await run('cat a.txt', sandbox({ mode: 'read-only' }))).output).toContain('original');
  });

  it('without the sandbox (kind none) the same write outside succeeds: the sandbox is what refused it', async () => {
    const target = path.join(bed().outside, 'unconfined.txt');
    const result = await run(`echo x > ${target}`, { kind: 'none' });
    expect(result.isError).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('x\n');
  });
});

describe('probeSandbox', () => {
  it('says bubblewrap is missing when it is not on the PATH', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-nobwrap-'));
    const result = await probeSandbox({ PATH: folder });
    expect(result).toEqual({ available: false, reason: expect.stringMatching(/bwrap\) is not installed/) });
  });

  it('probes with the confinement every command gets: a bwrap that cannot make a PID or user namespace means no sandbox', async () => {
    for (const flag of ['--unshare-pid', '--unshare-user', '--cap-drop']) {
      const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-nopid-'));
      const fake = path.join(folder, 'bwrap');
      // Works like bwrap except that the namespace (or the capability drop) cannot be had here.
      await writeFile(
        fake,
        `#!/bin/sh\nfor a in "$@"; do [ "$a" = ${flag} ] && { echo "bwrap: ${flag}: Operation not permitted" >&2; exit 1; }; done\nexec ${bwrap} "$@"\n`,
        { mode: 0o755 },
      );
      const result = await probeSandbox({ PATH: folder });
      expect(result, flag).toEqual({
        available: false,
        reason: expect.stringContaining(`${flag}: Operation not permitted`),
      });
    }
  });

  it('says so when bwrap cannot create its namespaces', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'taskweave-badbwrap-'));
    await mkdir(folder, { recursive: true });
    const fake = path.join(folder, 'bwrap');
    await writeFile(fake, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const result = await probeSandbox({ PATH: folder });
    expect(result).toEqual({
      available: false,
      reason: expect.stringMatching(/cannot create its namespaces here \(bwrap: No permissions/),
    });
  });
});
