import { spawn } from 'node:child_process';
import { CLI_PATH } from './cli.js';

/** How a CLI process killed on purpose ended. */
export interface KilledCli {
  /** The signal that ended it (SIGKILL when the trigger fired, null when it ended by itself). */
  signal: NodeJS.Signals | null;
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * Runs the built CLI and kills it with SIGKILL (no clean-up of any kind) once its output so far
 * matches `when`, `delayMs` later. Resolves when the process is gone.
 */
export function runCliUntil(
  args: string[],
  options: {
    when: (stdout: string) => boolean;
    delayMs?: number;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
  },
): Promise<KilledCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let fired = false;
    const kill = () => child.kill('SIGKILL');
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!fired && options.when(stdout)) {
        fired = true;
        if (options.delayMs) setTimeout(kill, options.delayMs);
        else kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(kill, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, pid: child.pid ?? -1 });
    });
  });
}
