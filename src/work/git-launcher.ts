import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Starting a child process from Node forks the whole process first: the fork copies the page
 * tables and marks every page copy-on-write, which blocks the event loop for a time that grows
 * with its memory (about 4 ms at the 100 MB of a worker, 14 ms at 250 MB, against 1 ms for a
 * bare `node`), and the process pays a page fault for each page it writes afterwards. A worker
 * runs about a hundred git commands per goal; each held up the events, answers and database
 * round trips of every run in the process (bench:cluster).
 *
 * A long-running process (`work`, `serve`) has its git commands started by a small helper
 * process instead: a bare `node` with this file's CHILD_SOURCE, talking over its IPC channel.
 * The helper starts with the process's work; until it says it is ready, and whenever it is gone,
 * commands start here as before (a new helper is started for the commands after). What a command is given and what it returns are the same.
 */

/** What the helper runs: it starts each command it is sent and sends back how it ended. */
const CHILD_SOURCE = `
const { spawn } = require('node:child_process');
const running = new Map();
// Its parent may be gone at any moment: a message that cannot go is dropped (the callback takes the error).
const send = (message) => {
  if (process.connected) process.send(message, undefined, undefined, () => {});
};
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  if (message.t === 'input') {
    running.get(message.id)?.stdin.end(message.input ?? undefined);
    return;
  }
  if (message.t === 'kill') {
    running.get(message.id)?.kill('SIGTERM');
    return;
  }
  const out = [];
  const err = [];
  let child;
  try {
    child = spawn(message.file, message.args, { cwd: message.cwd, env: message.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    send({ t: 'error', id: message.id, message: String(error && error.message) });
    return;
  }
  running.set(message.id, child);
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  child.stdin.on('error', () => {});
  child.on('error', (error) => {
    running.delete(message.id);
    send({ t: 'error', id: message.id, message: String(error && error.message) });
  });
  child.on('close', (code, signal) => {
    if (!running.delete(message.id)) return;
    send({ t: 'done', id: message.id, code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
  });
  if (!message.waitInput) child.stdin.end(message.input ?? undefined);
});
send({ t: 'ready' });
`;

/** What a command started by the helper (or here) ended with. */
export interface LaunchedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

export interface LaunchOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string | Buffer | Promise<string | Buffer>;
  signal?: AbortSignal;
}

interface Pending {
  resolve: (exit: LaunchedExit) => void;
  reject: (error: Error) => void;
}

type FromHelper =
  | { t: 'ready' }
  | {
      t: 'done';
      id: number;
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: Uint8Array;
      stderr: Uint8Array;
    }
  | { t: 'error'; id: number; message: string };

let enabled = false;
let helper: ChildProcess | undefined;
let ready = false;
let nextId = 1;
const pending = new Map<number, Pending>();

/**
 * Has this process's git commands started by the helper from now on (a long-running process:
 * `work`, `serve`), and starts the helper: the commands started before it is ready start here.
 */
export function launchGitFromHelper(): void {
  enabled = true;
  if (helper === undefined) startHelper();
}

/** The helper's process id once it is ready to start commands; undefined before and when it is gone. */
export function gitHelperPid(): number | undefined {
  return enabled && ready && helper?.connected === true ? helper.pid : undefined;
}

/** Starts commands in this process again, and ends the helper once what it runs has finished. */
export function stopGitHelper(): void {
  enabled = false;
  if (pending.size === 0) endHelper();
}

function endHelper(): void {
  const child = helper;
  helper = undefined;
  ready = false;
  if (child?.connected) child.disconnect();
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function startHelper(): void {
  const child = spawn(process.execPath, ['-e', CHILD_SOURCE], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
    env: { PATH: process.env.PATH ?? '' },
  });
  helper = child;
  child.on('message', (message: FromHelper) => {
    if (message.t === 'ready') {
      ready = true;
      return;
    }
    const waiting = pending.get(message.id);
    if (waiting === undefined) return;
    pending.delete(message.id);
    if (pending.size === 0) {
      child.channel?.unref();
      if (!enabled) endHelper();
    }
    if (message.t === 'error') waiting.reject(new Error(message.message));
    else
      waiting.resolve({
        code: message.code,
        signal: message.signal,
        stdout: toBuffer(message.stdout),
        stderr: toBuffer(message.stderr),
      });
  });
  const gone = () => {
    if (helper !== child) return;
    helper = undefined;
    ready = false;
    // What it was running may or may not have finished: said as a failure, never run again.
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(new Error('the helper process that started it ended before it did'));
    }
  };
  child.on('exit', gone);
  child.on('error', gone);
  child.unref();
  child.channel?.unref();
}

/**
 * Starts `file` with `args` through the helper when it is ready, and resolves with how it ended;
 * returns undefined when the command should be started here (not enabled, the helper not ready
 * yet, or gone: a new one is started for the commands after).
 */
export function launchThroughHelper(
  file: string,
  args: string[],
  options: LaunchOptions,
): Promise<LaunchedExit> | undefined {
  if (!enabled || options.signal?.aborted) return undefined;
  if (helper === undefined) startHelper();
  const child = helper;
  if (!ready || child === undefined || !child.connected) return undefined;
  const id = nextId++;
  const result = new Promise<LaunchedExit>((resolve, reject) => pending.set(id, { resolve, reject }));
  child.channel?.ref();
  const waitInput = options.input instanceof Promise;
  const send = (message: object) => {
    try {
      child.send(message);
    } catch {
      // The helper is gone: its exit rejects what waits.
    }
  };
  send({
    t: 'run',
    id,
    file,
    args,
    cwd: options.cwd,
    env: options.env,
    input: waitInput ? null : (options.input ?? null),
    waitInput,
  });
  if (waitInput) {
    Promise.resolve(options.input).then(
      (input) => send({ t: 'input', id, input }),
      () => send({ t: 'input', id, input: null }),
    );
  }
  const signal = options.signal;
  if (signal === undefined) return result;
  const abort = () => send({ t: 'kill', id });
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  const settled = () => signal.removeEventListener('abort', abort);
  result.then(settled, settled);
  return result;
}
