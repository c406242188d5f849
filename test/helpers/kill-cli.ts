import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

const ATOMIC_WRITE_MODULE = fileURLToPath(
  new URL('../../dist/tools/workspace/atomic-write.js', import.meta.url),
);
const WORKSPACE_MODULE = fileURLToPath(new URL('../../dist/tools/workspace/workspace.js', import.meta.url));
/** Large enough that the write is still going on when the temporary file is seen. */
const BIG_CONTENT_BYTES = 64 * 1024 * 1024;

/**
 * Starts a process that writes `folder/<name>` with taskweave's atomic write and kills it with
 * SIGKILL as soon as the write's temporary file appears: what a `kill -9` during write_file
 * leaves. Tries again when the write was too quick to be caught. Returns the temporary file's name.
 */
export async function killDuringAtomicWrite(folder: string, name: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const watcher = watch(folder);
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { writeFileAtomic } = await import(${JSON.stringify(ATOMIC_WRITE_MODULE)});
         const { Workspace } = await import(${JSON.stringify(WORKSPACE_MODULE)});
         const workspace = await Workspace.open(${JSON.stringify(folder)});
         await writeFileAtomic(${JSON.stringify(path.join(folder, name))}, 'x'.repeat(${BIG_CONTENT_BYTES}), { workspace });`,
      ],
      { stdio: 'ignore' },
    );
    watcher.on('change', (_kind, file) => {
      if (String(file).endsWith('.taskweave-tmp')) child.kill('SIGKILL');
    });
    await new Promise((resolve) => child.on('close', resolve));
    watcher.close();
    const left = (await readdir(folder)).find((file) => file.endsWith('.taskweave-tmp'));
    if (left) return left;
  }
  throw new Error('the atomic write finished before it could be killed, five times');
}
