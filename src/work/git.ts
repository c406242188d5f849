import { spawn } from 'node:child_process';
import { withoutTaskweaveSecrets } from '../util/command-environment.js';

/**
 * Config given to every git command taskweave runs for change records: nothing the repository's
 * config names runs (no file-system monitor, no hooks, no pager), and nothing asks a question.
 * Clean filters the user configured (git-lfs) still run, as they do for the user's `git add`.
 */
const SAFE_CONFIG = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'core.untrackedCache=true',
  '-c',
  'gc.auto=0',
  '-c',
  'maintenance.auto=false',
];

/** A git command that failed: its arguments and what it said. */
export class GitError extends Error {
  override name = 'GitError';
  /** What the command printed on standard output before it failed. */
  stdout?: string;
}

export interface GitOptions {
  cwd: string;
  /** Extra environment (GIT_INDEX_FILE). */
  env?: Record<string, string>;
  /** Given on standard input; a promise of it lets git start before the input is known. */
  input?: string | Buffer | Promise<string | Buffer>;
  signal?: AbortSignal;
}

/**
 * Runs git with taskweave's safe config and returns what it printed (whole, as bytes). Throws
 * a GitError with git's message when it exits with another code than 0.
 */
export function git(args: string[], options: GitOptions): Promise<Buffer> {
  // What git runs (the user's clean filters, credential helpers) gets none of taskweave's secrets.
  const env = {
    ...withoutTaskweaveSecrets(process.env),
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new GitError(`git ${args[0]} could not run: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(failed(args, code, Buffer.concat(out), Buffer.concat(err)));
    });
    child.stdin.on('error', () => {});
    Promise.resolve(options.input).then(
      (input) => child.stdin.end(input),
      () => child.stdin.end(),
    );
  });
}

function failed(args: string[], code: number | string | null, stdout: Buffer, stderr: Buffer): GitError {
  const said = stderr.toString('utf8').trim();
  const failure = new GitError(`git ${args.join(' ')} failed (exit ${code}): ${said || 'no message'}`);
  failure.stdout = stdout.toString('utf8');
  return failure;
}

/** What a git command said, whatever its exit code. */
export interface GitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git like `git()` but resolves with the exit code instead of throwing on one other than
 * 0 (for commands whose exit code is an answer: `merge-tree` says 1 for a conflict).
 */
export async function gitOutcome(args: string[], options: GitOptions): Promise<GitOutcome> {
  try {
    const stdout = (await git(args, options)).toString('utf8');
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const match = /\(exit (\d+)\): ([\s\S]*)$/.exec(error.message);
    if (!match) throw error;
    return { code: Number(match[1]), stdout: error.stdout ?? '', stderr: match[2] ?? '' };
  }
}
