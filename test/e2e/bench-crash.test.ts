import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The short form of bench/crash (the README has the full run): 10 random kill -9, nothing lost. */
describe('bench/crash --kills 10', () => {
  it('loses no task, completes none twice, doubles no side effect, leaves nothing corrupt', async () => {
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'bench/crash.ts', '--kills', '10', '--seed', '11'],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.stderr.on('data', (chunk) => {
        err += chunk;
      });
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    const summary = stdout.trim().split('\n').at(-1) ?? '';
    expect(summary, stdout + stderr).toMatch(
      /^crash: \d+ kills in \d+ episodes .*: 0 tasks lost, 0 completed twice, 0 side effects doubled, 0 half-written files, 0 temp files left, 0 commands left running, 0 corrupt databases, 0 hung or stuck .* PASS$/,
    );
    expect(Number(/^crash: (\d+) kills/.exec(summary)?.[1])).toBeGreaterThanOrEqual(10);
    expect(code).toBe(0);
  }, 240_000);
});
