import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from '../helpers/cli.js';
import { tempWorkspaceRoot } from '../helpers/run-harness.js';

async function setup(turns: unknown[]) {
  const workspace = await tempWorkspaceRoot('taskweave-piped-');
  const script = await writeScript(await tempWorkspaceRoot('taskweave-script-'), { turns });
  return { workspace, model: `script:${script}` };
}

describe('piped output (a CI log)', () => {
  it('says now and then that a long command is still running, with its last output line', async () => {
    const { workspace, model } = await setup([
      {
        toolCalls: [
          { name: 'run_command', args: { command: 'echo compiling module one; sleep 1.5; echo done' } },
        ],
      },
      { text: 'Built.' },
    ]);
    const run = await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'build'], {
      env: { TASKWEAVE_STILL_RUNNING_MS: '400' },
    });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const still = lines.filter((line) => line.includes('still running'));
    expect(still.length, run.stdout).toBeGreaterThanOrEqual(2);
    expect(still.at(-1)).toMatch(
      /^… run_command\("echo compiling module one; sleep 1.5; echo done"\) still running \(\ds\) · last output: compiling module one$/,
    );
    // The lines come before the command's own line, and stop once it ended.
    const ended = lines.findIndex((line) => line.startsWith('→ run_command('));
    expect(lines.findLastIndex((line) => line.includes('still running'))).toBeLessThan(ended);
  });

  it('sessions show --full shows a tool result whole; without it, one line', async () => {
    const { workspace, model } = await setup([
      { toolCalls: [{ name: 'run_command', args: { command: 'seq 1 30; exit 1' } }] },
      { text: 'It failed.' },
    ]);
    expect(
      (await runCli(['run', '--approval', 'auto', '--model', model, '--cwd', workspace, 'count'])).code,
    ).toBe(0);
    const short = await runCli(['sessions', 'show', 'last', '--events', '--cwd', workspace]);
    expect(short.stdout).not.toMatch(/^\s+29$/m);
    const full = await runCli(['sessions', 'show', 'last', '--events', '--full', '--cwd', workspace]);
    expect(full.code).toBe(0);
    const eventLines = full.stdout.slice(full.stdout.indexOf('Events ('));
    expect(eventLines).toMatch(/tool_error +run_command ✗ .+ exit 1 · \S+\n +Exit code: 1\n/);
    expect(eventLines).toMatch(/^\s+29\n\s+30\n/m);
  });
});
