import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./fixtures/store-worker.ts', import.meta.url));

export interface FixtureResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface StartedFixture {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the worker has printed its first line (`ready`). */
  ready: Promise<void>;
  result: Promise<FixtureResult>;
}

/** Starts the store worker fixture in a real Node process (TypeScript through tsx). */
export function startFixture(args: readonly string[]): StartedFixture {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { cwd: REPO_ROOT });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('\n')) markReady();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const result = new Promise<FixtureResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      markReady();
      resolve({ code, stdout, stderr });
    });
  });
  return { child, ready, result };
}

/** Runs the store worker fixture to its end. */
export function runFixture(args: readonly string[]): Promise<FixtureResult> {
  const started = startFixture(args);
  started.child.stdin.end();
  return started.result;
}
