import { runShellCommand } from '../../tools/process/index.js';
import { probeSandbox, sandboxLaunch } from '../../tools/sandbox/index.js';
import { withoutCredentials } from '../../util/command-environment.js';
import { CHECKER_TIMEOUT_MS } from '../checker.js';

/** How long an exercise's install step may take. */
export const INSTALL_TIMEOUT_MS = 300_000;
/** Each of stdout and stderr keeps its head and tail within this many characters. */
const MAX_OUTPUT_CHARS = 40_000;

/** How a test or install command went. */
export interface CommandVerdict {
  passed: boolean;
  /** stdout and stderr, with the workspace's path shown as `.`; or why it did not run. */
  output: string;
  durationMs: number;
}

/**
 * Runs one command of an exercise (its install or its tests) with bash in the workspace: inside
 * the sandbox (the workspace writable, the rest read-only) with network only when asked, or
 * unconfined where bubblewrap cannot run. API keys are not passed on. Exit code 0 is a pass.
 */
export async function runExerciseCommand(options: {
  command: string;
  workspace: string;
  /** Where the command runs, inside the workspace (default: the workspace itself). */
  cwd?: string;
  network: boolean;
  /** With the network off: unix sockets allowed, the machine's own covered (a browser needs them). */
  unixSockets?: boolean;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<CommandVerdict> {
  const env: NodeJS.ProcessEnv = {
    ...withoutCredentials(options.env),
    CI: 'true',
    NO_COLOR: '1',
    NODE_OPTIONS: '',
  };
  const sandbox = await probeSandbox(options.env);
  const launch = sandbox.available
    ? sandboxLaunch({
        sandbox: {
          kind: 'bwrap',
          bwrap: sandbox.bwrap,
          mode: 'workspace-write',
          network: options.network,
          ...(options.unixSockets === true ? { unixSockets: true } : {}),
        },
        workspaceRoot: options.workspace,
        cwd: options.cwd ?? options.workspace,
        env,
      })
    : undefined;
  const timeoutMs = options.timeoutMs ?? CHECKER_TIMEOUT_MS;
  const outcome = await runShellCommand({
    command: options.command,
    cwd: options.cwd ?? options.workspace,
    env: launch?.env ?? env,
    timeoutMs,
    signal: options.signal ?? new AbortController().signal,
    maxOutputCharsPerStream: MAX_OUTPUT_CHARS,
    ...(launch && sandbox.available
      ? { wrapper: { program: sandbox.bwrap, args: launch.args, input: launch.input } }
      : {}),
  });
  const output = `${outcome.stdout}${outcome.stderr ? `\n${outcome.stderr}` : ''}`
    .replaceAll(`${options.workspace}/`, '')
    .replaceAll(options.workspace, '.');
  const { end } = outcome;
  const ending =
    end.kind === 'exited'
      ? ''
      : end.kind === 'timed_out'
        ? `\n[${options.command}: timed out after ${timeoutMs / 1000} s]`
        : end.kind === 'signaled'
          ? `\n[${options.command}: killed by ${end.signal}]`
          : `\n[${options.command}: stopped]`;
  return {
    passed: end.kind === 'exited' && end.exitCode === 0,
    output: `${output.trim()}${ending}`,
    durationMs: outcome.durationMs,
  };
}
