import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCommandTool } from '../../src/tools/run-command.js';
import type { CommandSandbox } from '../../src/tools/sandbox.js';
import { probeSandbox } from '../../src/tools/sandbox-probe.js';
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

/** Host pids of the escaped processes: each writes its own /proc/self/stat's pid (the host's view under bwrap too). */
function hostPids(text: string): number[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line));
}

describe('a command that leaves its process group (setsid) does not survive its timeout (issue 11, finding 5)', () => {
  const bed = useToolTestBed();

  for (const { name, sandbox } of sandboxes) {
    it(`setsid in the foreground and setsid -f (double fork), ${name}`, async () => {
      const { ctx } = bed();
      ctx.sandbox = sandbox;
      // $$ of a bash started by setsid is its own pid (no pid namespace: the host's pid).
      const result = await runCommandTool.run(
        {
          command:
            "setsid -f bash -c 'echo $$ >> pids.txt; exec sleep 300'; setsid -w bash -c 'echo $$ >> pids.txt; exec sleep 300'",
          timeout_ms: 1_000,
        },
        ctx,
      );
      expect(result.output).toContain('Timed out after 1s');
      const pids = hostPids(await bed().read('pids.txt'));
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(await gone(pid, 4_000), `pid ${pid} survived the timeout`).toBe(true);
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
