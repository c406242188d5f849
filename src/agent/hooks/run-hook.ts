import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { withoutTaskweaveSecrets } from '../../util/command-environment.js';

/** The most of a hook's stderr kept (its end): what a refusal tells the model. */
const STDERR_LIMIT = 4_000;

/** How one hook's process ended. */
export interface HookOutcome {
  /** Null when it was killed (timeout, stop) or could not start. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** The end of what it wrote on stderr, trimmed; or why it could not start. */
  stderr: string;
}

/**
 * Runs one hook command as a child process (`/bin/sh -c`) in `cwd`, with `input` written to its
 * stdin as one JSON document. It runs in a process group of its own, killed whole (SIGKILL) when
 * `timeoutMs` passes or `signal` aborts, so a hook that starts children leaves none behind.
 * Never throws: a hook that cannot start is an outcome with exitCode null.
 */
export function runHook(options: {
  command: string;
  cwd: string;
  input: unknown;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<HookOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: withoutTaskweaveSecrets(options.env ?? process.env),
      detached: true,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group ended meanwhile.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | null, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Children the hook left behind in its group do not outlive it.
      killGroup();
      resolve({
        exitCode,
        timedOut,
        durationMs: performance.now() - started,
        stderr: (why ?? stderr).trim(),
      });
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_LIMIT);
    });
    child.on('error', (error) => finish(null, `the hook could not start: ${error.message}`));
    let exitCode: number | null = null;
    // Once the hook itself exits, what it left running is ended: its stderr closes, and the run
    // is not held up by a child that keeps it open.
    child.on('exit', (code) => {
      exitCode = timedOut ? null : code;
      killGroup();
    });
    child.on('close', () => finish(exitCode));
    // A hook that does not read its input closes stdin early: that is its right, not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(options.input)}\n`);
  });
}
