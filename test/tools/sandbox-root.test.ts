import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { SANDBOX_UID_FOR_ROOT } from '../../src/tools/sandbox/sandbox-confinement.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const sandbox: CommandSandbox = {
  kind: 'bwrap',
  bwrap: found.bwrap,
  mode: 'workspace-write',
  network: false,
};
const asRoot = process.getuid?.() === 0;

/**
 * Reads the environment and memory of every other process the command can see and prints where
 * the secret occurs, as the red team's attack did (it printed the key reversed, past the
 * redaction). The secret is given reversed, so that no command line holds it.
 */
const MEMORY_SCAN = `
import os, re, sys
needle = sys.argv[1][::-1].encode()
for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()]:
    try:
        if needle in open(f'/proc/{pid}/environ', 'rb').read():
            print('found in the environment of', pid); sys.exit(0)
    except OSError:
        pass
    try:
        maps = open(f'/proc/{pid}/maps').read().splitlines()
        mem = open(f'/proc/{pid}/mem', 'rb', 0)
    except OSError:
        continue
    for line in maps:
        m = re.match(r'([0-9a-f]+)-([0-9a-f]+) r', line)
        if not m: continue
        start, end = int(m.group(1), 16), int(m.group(2), 16)
        if end - start > 256 << 20: continue
        try:
            mem.seek(start); chunk = mem.read(end - start)
        except (OSError, ValueError, OverflowError):
            continue
        if needle in chunk:
            print('found in', pid, chunk[chunk.index(needle):][:40][::-1]); sys.exit(0)
print('not found')
`;

describe.runIf(asRoot)('the sandbox as root (issue 23, item 5)', () => {
  const bed = useToolTestBed();
  let outside: string;

  beforeEach(async () => {
    // Not under /tmp, which the sandbox replaces with a private one.
    outside = await mkdtemp(path.join('/var/tmp', 'taskweave-root-'));
  });
  afterEach(() => rm(outside, { recursive: true, force: true }));

  async function run(command: string) {
    return runCommandTool.run({ command, continue_on_error: true }, { ...bed().ctx, sandbox });
  }

  it('cannot write outside the workspace through /proc/<pid>/root, nor into .git/config or .taskweave/', async () => {
    await bed().write('.git/config', '[core]\n');
    await bed().write('.taskweave/keep', '');
    const escaped = path.join(outside, 'escaped.txt');
    const root = bed().root;
    const result = await run(
      `for p in /proc/$PPID /proc/[0-9]*; do echo x > $p/root${escaped}; ` +
        `echo '[core] fsmonitor = x' >> $p/root${root}/.git/config; echo '{}' > $p/root${root}/.taskweave/config.json; done; true`,
    );
    expect(result.isError, result.output).toBe(false);
    expect(existsSync(escaped)).toBe(false);
    expect(await bed().read('.git/config')).toBe('[core]\n');
    expect(existsSync(path.join(root, '.taskweave/config.json'))).toBe(false);
  });

  it('cannot remount / read-write (no capabilities), and so cannot write outside', async () => {
    const escaped = path.join(outside, 'remounted.txt');
    const result = await run(
      `mount -o remount,rw / ; mount -o remount,rw,bind / ; echo x > ${escaped}; grep CapEff /proc/self/status`,
    );
    expect(existsSync(escaped)).toBe(false);
    expect(result.output).toMatch(/CapEff:\s+0000000000000000/);
  });

  it("cannot see taskweave's process: neither its environment nor its memory (a provider key stays home)", async () => {
    const secret = `sk-proj-${Math.random().toString(36).slice(2)}${Date.now()}`;
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = secret;
    // Also kept in this process's heap, as taskweave keeps the key it uses.
    const held = { key: `${secret}` };
    try {
      const needle = secret.slice(0, 20);
      const reversed = [...needle].reverse().join('');
      const listing = await run(`for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done`);
      expect(listing.output).not.toContain('vitest');
      const scan = await run(
        `python3 -c "$SCAN" ${reversed}`.replace('$SCAN', MEMORY_SCAN.replaceAll('"', '\\"')),
      );
      expect(scan.output).toContain('not found');
      expect(scan.output).not.toContain(needle);
      expect(scan.output).not.toContain(`found in`);
      expect(held.key).toBe(secret);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  }, 60_000);

  it('runs the command as a non-root user whose files are owned by root outside, so writes work', async () => {
    const result = await run(
      'id -u; mkdir -p out && echo built > out/file.txt && git init -q repo && git -C repo status --short',
    );
    expect(result.isError, result.output).toBe(false);
    expect(result.output).toContain(`--- stdout ---\n${SANDBOX_UID_FOR_ROOT}\n`);
    expect(await bed().read('out/file.txt')).toBe('built\n');
    expect(statSync(path.join(bed().root, 'out/file.txt')).uid).toBe(0);
    expect(statSync(path.join(bed().root, 'repo/.git')).uid).toBe(0);
  });
});
