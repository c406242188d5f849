import path from 'node:path';
import type { ApprovalMode, SandboxMode } from '../../runtime/defaults.js';
import type { WaitingSession } from '../../runtime/index.js';
import { scriptPathFromShell } from '../interactive/script-path.js';
import type { StoreCliOptions } from '../options.js';

/** The options of the command that ended, which the continuing command must repeat. */
export interface RepeatedOptions extends StoreCliOptions {
  model?: string;
  baseUrl?: string;
  /** Repeated so that the continued run is allowed what the first one was, no less. */
  approval?: ApprovalMode;
  sandbox?: SandboxMode;
  /** true with `--network`. */
  network?: boolean;
  /** false with `--no-lsp`. */
  lsp?: boolean;
  maxSteps?: number;
  budget?: number;
  plan?: 'auto' | 'always' | 'never';
  inputTimeout?: number;
  concurrency?: number;
  onFailure?: 'abort' | 'skip' | 'ask';
  protocol?: 'native' | 'json';
  loop?: 'react' | 'roa';
  isolation?: string;
  fromHead?: boolean;
  /** false with `--no-apply`. */
  apply?: boolean;
}

/**
 * The lines that tell how to continue a session that waits for the user: the exact command for a
 * script (the answer, `--yes` for a plan, a wider `--approval` for a call), and the plain
 * command that asks on a terminal.
 */
export function continueLines(waiting: WaitingSession, options: RepeatedOptions): string[] {
  const base = ['taskweave', 'resume', waiting.session.id, ...repeated(options)];
  const withApproval = options.approval === undefined ? base : [...base, '--approval', options.approval];
  const asked = `On a terminal, ${quote(withApproval)} asks you.`;
  const { waitingFor } = waiting;
  switch (waitingFor.kind) {
    case 'answer':
      return [
        `To answer and continue${waitingFor.taskId === undefined ? '' : ` (the plan's task ${waitingFor.taskId} asked)`}: ${quote(withApproval)} --answer "<your answer>"`,
        asked,
      ];
    case 'plan':
      return [`To approve the plan and run it: ${quote([...withApproval, '--yes'])}`, asked];
    case 'approval': {
      const needed = waitingFor.name === 'run_command' ? 'auto' : 'edits';
      const mode = options.approval === 'auto' ? 'auto' : needed;
      return [
        `To allow it and continue: ${quote([...base, '--approval', mode])}`,
        `${asked.slice(0, -1)} before the call runs.`,
      ];
    }
  }
}

/** The workspace, database and model options of the command, as given. */
function repeated(options: RepeatedOptions): string[] {
  const args: string[] = [];
  if (path.resolve(options.cwd) !== process.cwd()) args.push('--cwd', path.resolve(options.cwd));
  if (options.db !== undefined) args.push('--db', path.resolve(options.db));
  if (options.model !== undefined) args.push('--model', scriptPathFromShell(options.model) ?? options.model);
  if (options.baseUrl !== undefined) args.push('--base-url', options.baseUrl);
  if (options.sandbox !== undefined) args.push('--sandbox', options.sandbox);
  if (options.network === true) args.push('--network');
  if (options.lsp === false) args.push('--no-lsp');
  // What the run was given beyond the defaults: the continued run keeps its limits and choices.
  if (options.maxSteps !== undefined) args.push('--max-steps', String(options.maxSteps));
  if (options.budget !== undefined) args.push('--budget', String(options.budget));
  if (options.plan !== undefined && options.plan !== 'auto') args.push('--plan', options.plan);
  if (options.inputTimeout !== undefined) args.push('--input-timeout', String(options.inputTimeout));
  if (options.concurrency !== undefined) args.push('--concurrency', String(options.concurrency));
  if (options.onFailure !== undefined && options.onFailure !== 'abort')
    args.push('--on-failure', options.onFailure);
  if (options.protocol !== undefined && options.protocol !== 'native')
    args.push('--protocol', options.protocol);
  if (options.loop !== undefined && options.loop !== 'react') args.push('--loop', options.loop);
  if (options.isolation !== undefined) args.push('--isolation', options.isolation);
  if (options.fromHead === true) args.push('--from-head');
  if (options.apply === false) args.push('--no-apply');
  return args;
}

/**
 * The line that tells how to continue a run the user stopped (exit code 3) whose session has work
 * `resume` continues (an unfinished plan): the command with every option the run was given.
 */
export function stoppedContinueLine(sessionId: string, options: RepeatedOptions): string {
  const words = ['taskweave', 'resume', sessionId, ...repeated(options)];
  if (options.approval !== undefined) words.push('--approval', options.approval);
  return `To continue: ${quote(words)}`;
}

/** The words as a shell reads them back: plain when safe, else in single quotes. */
function quote(words: string[]): string {
  return words
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`))
    .join(' ');
}
