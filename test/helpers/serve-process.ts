import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { TestServer } from '../server/helpers.js';
import { CLI_PATH } from './cli.js';

/** A `taskweave serve` running as a process of its own. */
export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** A TestServer view of the process, for the REST and WebSocket helpers. */
  target: TestServer;
  exited: Promise<number | null>;
}

/** Starts `taskweave serve` as a real process and waits for the header it prints (the URL and how to stop it). */
export async function startServe(
  cwd: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '-C', cwd, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // The header's lines may come in more than one chunk: wait for the last one. No clock of its
  // own: a loaded machine can take long to start a process; the test's timeout says a hang.
  while (!/Open http:\/\/\S+#token=\S+/.test(stdout) || !stdout.includes('Ctrl-C stops the server')) {
    if (child.exitCode !== null)
      throw new Error(`serve ended (exit ${child.exitCode}) before printing its URL: ${stdout}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const url = new URL(/Open (http:\/\/\S+)/.exec(stdout)![1]!);
  const port = Number(url.port);
  const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
  const target = {
    base: `http://127.0.0.1:${port}`,
    token,
    server: { port, token, url: url.href },
  } as unknown as TestServer;
  return { child, stdout: () => stdout, stderr: () => stderr, target, exited };
}
