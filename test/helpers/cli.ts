import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ServerEvent, serverEventSchema } from '../../src/events/registry.js';

/** The built CLI entry (npm test builds before the tests run). */
export const CLI_PATH = fileURLToPath(new URL('../../bin/taskweave.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called once the process has started, e.g. to send it a signal. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs the real CLI as a child process, with no terminal attached. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', TASKWEAVE_RETRY_BASE_MS: '10', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Only a guard against a hung process (the test's own timeout decides): a run with worktrees
    // took over 60 s on a 2-core machine at load 30, and was killed here while still working.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** Parses `--json` output: every line must be a valid protocol event. */
export function parseJsonLines(stdout: string): ServerEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => serverEventSchema.parse(JSON.parse(line)));
}

/** Writes a script-model file into a folder and returns its path. */
export async function writeScript(folder: string, script: unknown, name = 'script.json'): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, JSON.stringify(script, null, 2));
  return file;
}

/** The lines of a table after its header, each split into its columns. */
export function tableRows(stdout: string): string[][] {
  return stdout
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s{2,}/));
}

/**
 * Runs the CLI with its stdout piped into `head -1` (the reader goes away after one line):
 * the CLI's own exit code, its stderr and what head printed.
 */
export function pipeIntoHead(
  args: string[],
  codeFile: string,
): Promise<{ code: number; stderr: string; head: string }> {
  const quoted = [process.execPath, CLI_PATH, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${quoted} 2>"$ERR" | head -1; echo "\${PIPESTATUS[0]}" > "$CODE"`], {
      env: { ...process.env, NO_COLOR: '1', ERR: `${codeFile}.err`, CODE: codeFile },
      // Not an open pipe: taskweave would wait for piped input on it.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let head = '';
    child.stdout.on('data', (chunk) => {
      head += chunk;
    });
    child.on('close', async () => {
      resolve({
        code: Number((await readFile(codeFile, 'utf8')).trim()),
        stderr: await readFile(`${codeFile}.err`, 'utf8'),
        head,
      });
    });
  });
}
