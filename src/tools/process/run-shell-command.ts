import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { withoutTaskweaveSecrets } from '../../util/command-environment.js';
import { findOnPath } from './find-on-path.js';
import { HeadTailCapture } from './head-tail-capture.js';
import { COMMAND_MARK_ENV, markedGone, newCommandMark, signalMarked } from './process-tree.js';

/** After SIGTERM, how long a process group has to exit before it gets SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/**
 * After the shell exited, how long to wait for its output pipes to close. A background job it
 * started (`server &`) may hold them open for ever; its later output is not waited for.
 */
export const STDIO_DRAIN_MS = 300;

/** After SIGKILL, how long a killed command's processes get to disappear before it is reported anyway. */
const KILLED_EXIT_MS = 1_000;

/** The descriptor a wrapper reads its `input` from (a sandbox's seccomp filter). */
export const WRAPPER_INPUT_FD = 3;

/** How a command ended. */
export type CommandEnd =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'signaled'; signal: NodeJS.Signals }
  | { kind: 'timed_out' }
  | { kind: 'stopped' };

/** What a finished command left: how it ended and its (capped) output. */
export interface CommandOutcome {
  end: CommandEnd;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface RunShellCommandOptions {
  command: string;
  cwd: string;
  /** The command's environment, less taskweave's own secrets (util/command-environment.ts). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Aborting ends the command like a timeout does, reported as stopped. */
  signal: AbortSignal;
  /** Each stream keeps its head and tail within this many characters. */
  maxOutputCharsPerStream: number;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /**
   * A program the shell runs under, with its arguments (the sandbox: `bwrap …`); `--` follows
   * them. `input` is given to it on descriptor WRAPPER_INPUT_FD, closed after.
   */
  wrapper?: { program: string; args: string[]; input?: Buffer };
  /** Told the command's process group and mark once it started (to record them for a later process). */
  onStart?: (started: { pid: number; mark: string }) => void;
}

/**
 * Runs a command line with bash (or /bin/sh where there is no bash) in a process group of its
 * own, stdin closed. On timeout or abort the whole group is killed — SIGTERM, then SIGKILL after
 * a grace period — so the processes the command started die with it.
 */
/**
 * Process groups of commands that are running or being killed. When taskweave exits (a second
 * Ctrl-C, or the end of the process during a kill's grace period) they get SIGKILL at once,
 * so no command outlives it. A command that ended by itself leaves this set: what it started
 * in the background on purpose (a dev server) keeps running.
 */
const liveGroups = new Map<number, string>();
let exitHookInstalled = false;

function trackGroup(pid: number, mark: string): void {
  liveGroups.set(pid, mark);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [group, groupMark] of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // ESRCH: already gone.
      }
      signalMarked(groupMark, 'SIGKILL');
    }
  });
}

/**
 * Leaves a command's process group out of the kill at taskweave's exit: a background command the
 * user chose to keep. (Under bubblewrap it still ends with taskweave: `--die-with-parent`.)
 */
export function releaseGroup(pid: number): void {
  liveGroups.delete(pid);
}

export function runShellCommand(options: RunShellCommandOptions): Promise<CommandOutcome> {
  if (options.signal.aborted) {
    return Promise.resolve({ end: { kind: 'stopped' }, stdout: '', stderr: '', durationMs: 0 });
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const stdout = new HeadTailCapture(options.maxOutputCharsPerStream);
    const stderr = new HeadTailCapture(options.maxOutputCharsPerStream);
    let stopReason: 'timed_out' | 'stopped' | undefined;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const shell = shellPath();
    const shellArgs = ['-c', options.command];
    // Processes that leave the group (setsid) still carry the mark: they are killed with it.
    const mark = newCommandMark();
    const spawnOptions: SpawnOptions = {
      cwd: options.cwd,
      // Whoever built the environment, taskweave's own secrets never reach a command (nor its wrapper).
      env: { ...withoutTaskweaveSecrets(options.env), [COMMAND_MARK_ENV]: mark },
      detached: true,
      // Descriptor WRAPPER_INPUT_FD is a pipe only when the wrapper has input to read there.
      stdio:
        options.wrapper?.input === undefined
          ? ['ignore', 'pipe', 'pipe']
          : ['ignore', 'pipe', 'pipe', 'pipe'],
    };
    const child: ChildProcess = options.wrapper
      ? spawn(options.wrapper.program, [...options.wrapper.args, '--', shell, ...shellArgs], spawnOptions)
      : spawn(shell, shellArgs, spawnOptions);
    const { stdout: out, stderr: err } = child;
    if (out === null || err === null) throw new Error('the command was started without output pipes');
    const inputPipe = child.stdio[WRAPPER_INPUT_FD];
    if (options.wrapper?.input !== undefined && inputPipe && 'end' in inputPipe) {
      // A wrapper that died before reading it closes the pipe: its exit says why, not this.
      inputPipe.on('error', () => {});
      inputPipe.end(options.wrapper.input);
    }
    const group = child.pid;
    if (group !== undefined) {
      trackGroup(group, mark);
      options.onStart?.({ pid: group, mark });
    }
    out.setEncoding('utf8');
    err.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      stdout.push(chunk);
      options.onStdout?.(chunk);
    });
    err.on('data', (chunk: string) => {
      stderr.push(chunk);
      options.onStderr?.(chunk);
    });

    const signalGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: every process of the group has already exited.
      }
      signalMarked(mark, signal);
    };
    let killing = false;
    const killGroup = (reason: 'timed_out' | 'stopped'): void => {
      stopReason ??= reason;
      if (killing) return;
      killing = true;
      signalGroup('SIGTERM');
      // Not cleared when the shell exits: a child that ignores SIGTERM must still die. Unref'd so
      // it does not keep taskweave alive; the exit hook covers an exit before it fires.
      setTimeout(() => {
        signalGroup('SIGKILL');
        if (group !== undefined) liveGroups.delete(group);
      }, KILL_GRACE_MS).unref();
    };

    const timeout = setTimeout(() => killGroup('timed_out'), options.timeoutMs);
    const onAbort = (): void => killGroup('stopped');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const cleanUp = (): void => {
      settled = true;
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
    };
    const finish = (exit: CommandEnd): void => {
      if (settled) return;
      cleanUp();
      // Killed groups stay tracked until their SIGKILL has gone out.
      if (!killing && group !== undefined) liveGroups.delete(group);
      const outcome: CommandOutcome = {
        end: stopReason ? { kind: stopReason } : exit,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Math.round(performance.now() - started),
      };
      if (!killing) {
        resolve(outcome);
        return;
      }
      // A stopped or timed-out command is reported once its processes are gone (the shell can
      // end before a child it started; one that ignores SIGTERM gets SIGKILL after the grace):
      // whoever hears "stopped" finds nothing of it running. A process that outlives SIGKILL
      // (stuck in the kernel) does not hold the run for longer than that.
      void markedGone(mark, KILL_GRACE_MS + KILLED_EXIT_MS).then(() => resolve(outcome));
    };

    child.on('error', (error) => {
      if (settled) return;
      cleanUp();
      reject(error);
    });
    child.on('exit', (code, signal) => {
      drainTimer = setTimeout(() => {
        out.destroy();
        err.destroy();
        finish(endOf(code, signal));
      }, STDIO_DRAIN_MS);
    });
    child.on('close', (code, signal) => finish(endOf(code, signal)));
  });
}

function endOf(code: number | null, signal: NodeJS.Signals | null): CommandEnd {
  if (code !== null) return { kind: 'exited', exitCode: code };
  return { kind: 'signaled', signal: signal ?? 'SIGKILL' };
}

let cachedShell: string | undefined;

/** bash from PATH when there is one, else the POSIX shell every system has. */
function shellPath(): string {
  cachedShell ??= findOnPath('bash') ?? '/bin/sh';
  return cachedShell;
}
