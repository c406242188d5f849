import { readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STREAM_OUTPUT_CHARS, runCommandTool } from '../../src/tools/builtin/run-command.js';
import { useToolTestBed } from '../helpers/tool-context.js';

/** True while the process exists and is not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function waitUntilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isAlive(pid);
}

function firstPid(output: string): number {
  const match = /--- stdout ---\n(\d+)/.exec(output);
  if (!match?.[1]) throw new Error(`no pid in output:\n${output}`);
  return Number(match[1]);
}

describe('run_command', () => {
  const bed = useToolTestBed();

  it('reports the exit code, stdout, stderr and duration, clearly labelled', async () => {
    const result = await runCommandTool.run({ command: 'echo hello; echo oops >&2' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Exit code: 0\nDuration: \d/);
    expect(result.output).toContain('--- stdout ---\nhello\n');
    expect(result.output).toContain('--- stderr ---\noops\n');
    expect(result.display).toMatch(/^exit 0 · \d+(ms|\.\ds)$/);
  });

  it('runs in the workspace root with non-interactive hints in the environment', async () => {
    const result = await runCommandTool.run(
      { command: 'pwd; echo "$TASKWEAVE $GIT_TERMINAL_PROMPT $PAGER $CI"; test -t 0 || echo no-tty' },
      bed().ctx,
    );
    expect(result.output).toContain(`${bed().root}\n1 0 cat true\nno-tty`);
  });

  it("does not pass the model providers' API keys to commands", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-must-not-leak';
    try {
      const result = await runCommandTool.run({ command: 'env' }, bed().ctx);
      expect(result.isError).toBe(false);
      expect(result.output).not.toContain('sk-must-not-leak');
      expect(result.output).toContain('TASKWEAVE=1');
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('makes a non-zero exit an error result', async () => {
    const result = await runCommandTool.run({ command: 'echo partial; exit 3' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('Exit code: 3');
    expect(result.output).toContain('partial');
    expect(result.display).toMatch(/^exit 3 · /);
  });

  it('accepts a non-zero exit when continue_on_error is set', async () => {
    const result = await runCommandTool.run(
      { command: 'grep nothing /dev/null', continue_on_error: true },
      bed().ctx,
    );
    expect(result.isError).toBe(false);
    expect(result.output).toContain('Exit code: 1');
  });

  it('runs in working_dir inside the workspace', async () => {
    await mkdir(path.join(bed().root, 'sub/dir'), { recursive: true });
    const result = await runCommandTool.run({ command: 'pwd', working_dir: 'sub/dir' }, bed().ctx);
    expect(result.output).toContain(path.join(bed().root, 'sub/dir'));
  });

  it('refuses a working_dir outside the workspace, by .., absolute path or symlink', async () => {
    await symlink(bed().outside, path.join(bed().root, 'escape'));
    for (const workingDir of ['..', bed().outside, 'escape']) {
      const result = await runCommandTool.run(
        { command: 'touch escaped', working_dir: workingDir },
        bed().ctx,
      );
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/outside the workspace/);
    }
  });

  it('refuses a working_dir that does not exist', async () => {
    const result = await runCommandTool.run({ command: 'pwd', working_dir: 'nope' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('The working_dir nope does not exist');
  });

  it('keeps the head and tail of long output and counts what was elided', async () => {
    const count = 100_000;
    const full = `${Array.from({ length: count }, (_, index) => index + 1).join('\n')}\n`;
    const result = await runCommandTool.run({ command: `seq 1 ${count}` }, bed().ctx);
    expect(result.isError).toBe(false);
    const stdout = result.output.split('--- stdout ---\n')[1]?.split('\n--- stderr ---')[0] ?? '';
    const note = /\n… \[(\d+) characters, (\d+) lines elided\] …\n/.exec(stdout);
    expect(note).not.toBeNull();
    const [head = '', tail = ''] = stdout.split(note?.[0] ?? '');
    expect(head.startsWith('1\n2\n3\n')).toBe(true);
    expect(tail.endsWith('99999\n100000\n')).toBe(true);
    expect(full.startsWith(head) && full.endsWith(tail)).toBe(true);
    const elided = full.slice(head.length, full.length - tail.length);
    expect(Number(note?.[1])).toBe(elided.length);
    expect(Number(note?.[2])).toBe(elided.split('\n').length - 1);
    expect(stdout.length).toBeLessThanOrEqual(MAX_STREAM_OUTPUT_CHARS);
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const started = Date.now();
    const result = await runCommandTool.run(
      { command: 'sleep 30 & echo $!; sleep 30', timeout_ms: 400 },
      bed().ctx,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('Timed out after 0.4s');
    expect(result.display).toBe('timed out after 0.4s');
    expect(await waitUntilGone(firstPid(result.output), 1_000)).toBe(true);
  });

  it('kills the whole process group when the run is stopped', async () => {
    const { ctx, abort, progress } = bed();
    const running = runCommandTool.run({ command: 'sleep 30 & echo $!; wait' }, ctx);
    // Stop once the grandchild's pid has been reported.
    while (progress.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    abort.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.output).toContain('Stopped by the user');
    expect(result.display).toBe('stopped by the user');
    expect(await waitUntilGone(firstPid(result.output), 1_000)).toBe(true);
  });

  it('reports a stopped command once its processes are gone, a child that ignores SIGTERM and outlives the shell included', async () => {
    const { ctx, abort, progress } = bed();
    // The child ignores SIGTERM and holds none of the output pipes: the shell ends at once on the
    // stop, the child only on the SIGKILL after the grace period.
    const running = runCommandTool.run(
      { command: "(trap '' TERM; exec sleep 30) > /dev/null 2>&1 & echo $!; wait" },
      ctx,
    );
    while (progress.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    abort.abort();
    const result = await running;
    expect(result.output).toContain('Stopped by the user');
    // Looked at the moment the result came, with no wait.
    expect(isAlive(firstPid(result.output))).toBe(false);
  });

  it('does not start a command when the run is already stopped', async () => {
    const { ctx, abort } = bed();
    abort.abort();
    const result = await runCommandTool.run({ command: 'touch started' }, ctx);
    expect(result.output).toContain('Stopped by the user');
    await expect(bed().read('started')).rejects.toThrow();
  });

  it('does not wait for a background job that keeps the output pipes open', async () => {
    const started = Date.now();
    const result = await runCommandTool.run({ command: 'sleep 3 & echo started' }, bed().ctx);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.isError).toBe(false);
    expect(result.output).toContain('started');
  });

  it('streams output lines as progress, throttled rather than per line', async () => {
    const { ctx, progress } = bed();
    const result = await runCommandTool.run(
      { command: 'echo first; sleep 0.4; seq 1 5000; echo last >&2' },
      ctx,
    );
    expect(result.isError).toBe(false);
    expect(progress[0]).toBe('first');
    expect(progress.length).toBeLessThan(10);
    expect(progress.join('\n')).toContain('5000');
    expect(progress.join('\n')).toContain('last');
  });

  it('rejects a timeout above the maximum with the wrapper message', async () => {
    const result = await runCommandTool.run({ command: 'true', timeout_ms: 600_001 }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('The run_command tool was called with invalid arguments');
    expect(result.output).toContain('timeout_ms');
  });
});

describe('run_command when taskweave exits', () => {
  it('kills a command that ignores SIGTERM even when taskweave exits during the grace period', async () => {
    const { spawnSync } = await import('node:child_process');
    const marker = `tw-marker-${process.pid}-${Date.now()}`;
    const module = new URL('../../src/tools/process/run-shell-command.ts', import.meta.url).href;
    const script = `
      import { runShellCommand } from ${JSON.stringify(module)};
      const outcome = await runShellCommand({
        command: \`bash -c 'trap "" TERM; exec -a ${marker} sleep 30'; echo never\`,
        cwd: process.cwd(), env: process.env, timeoutMs: 300,
        signal: new AbortController().signal, maxOutputCharsPerStream: 1000,
      });
      console.log(outcome.end.kind);
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.stdout.trim()).toBe('timed_out');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const survivors = spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim();
    expect(
      survivors
        .split('\n')
        .filter(Boolean)
        .filter((pid) => isAlive(Number(pid))),
    ).toEqual([]);
  });
});
