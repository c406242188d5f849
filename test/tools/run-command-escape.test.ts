import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/builtin/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox/sandbox-probe.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const found = await probeSandbox();
if (!found.available) throw new Error(`These tests need bubblewrap: ${found.reason}`);
const sandboxes: { name: string; sandbox: CommandSandbox }[] = [
  { name: 'without the sandbox', sandbox: { kind: 'none' } },
  {
    name: 'in the sandbox',
    sandbox: { kind: 'bwrap', bwrap: found.bwrap, mode: 'workspace-write', network: false },
  },
];

function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** Pids written by unsandboxed processes (each its own $$). */
function hostPids(text: string): number[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line));
}

/**
 * Host pids of the processes whose command line has `token`. In the sandbox a command has its own
 * PID namespace (its $$ is not the host's pid), so the escaped processes are found from outside.
 */
function hostPidsRunning(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token) && isAlive(Number(entry)))
        pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function noneRunning(token: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline && hostPidsRunning(token).length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return hostPidsRunning(token);
}

describe('a command that leaves its process group (setsid) does not survive its timeout (issue 11, finding 5)', () => {
  const bed = useToolTestBed();

  for (const { name, sandbox } of sandboxes) {
    it(`setsid in the foreground and setsid -f (double fork), ${name}`, async () => {
      const { ctx } = bed();
      ctx.sandbox = sandbox;
      // A duration no other process has on its command line: the escaped sleeps are found by it.
      const token = `300.${process.pid}${Date.now() % 100_000}`;
      const result = await runCommandTool.run(
        {
          command: `setsid -f bash -c 'echo started >> started.txt; exec sleep ${token}'; setsid -w bash -c 'echo started >> started.txt; exec sleep ${token}'`,
          timeout_ms: 1_000,
        },
        ctx,
      );
      expect(result.output).toContain('Timed out after 1s');
      expect((await bed().read('started.txt')).trim().split('\n')).toHaveLength(2);
      expect(await noneRunning(token, 4_000), 'processes survived the timeout').toEqual([]);
    });
  }

  it('a process started in a new session that ignores SIGTERM is killed after the grace period', async () => {
    const { ctx } = bed();
    const result = await runCommandTool.run(
      {
        command:
          'setsid -f bash -c \'trap "" TERM; echo $$ >> pids.txt; while :; do sleep 1; done\'; sleep 300',
        timeout_ms: 800,
      },
      ctx,
    );
    expect(result.output).toContain('Timed out');
    const [pid] = hostPids(await bed().read('pids.txt'));
    expect(await gone(pid as number, 5_000)).toBe(true);
  });
});
