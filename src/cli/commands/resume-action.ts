import type { QueueTaskResult, Runtime, WaitingSession } from '../../runtime/index.js';
import { waitingText } from '../../runtime/index.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { CliRuntime } from '../interactive/cli-runtime.js';
import type { ResumeCliOptions, StoreCliOptions } from '../options.js';
import { outputClosed } from '../render/output-closed.js';
import { styleFor } from '../render/terminal.js';
import { waitingReply } from '../render/waiting-reply.js';
import { continueLines, type RepeatedOptions, stoppedContinueLine } from './continue-command.js';

/**
 * `taskweave resume`: continues a session that waits for the user (an answer, a plan approval,
 * a call's approval) with the reply given on the command line or asked on the terminal, or what
 * a crash left unfinished, through the runtime.
 */
export async function resumeWork(options: ResumeCliOptions): Promise<number> {
  if (options.session !== undefined) await knownSession(options, options.session);
  const cli = await CliRuntime.open(options);
  try {
    const { runtime } = cli;
    const waiting = await runtime.waitingSession(options.session);
    if (waiting) return await continueWaiting(cli, waiting, options);
    if (options.answer !== undefined) {
      cli.say(
        options.session === undefined
          ? 'No session in this workspace waits for an answer: --answer has nothing to answer.'
          : `Session ${options.session} does not wait for an answer: --answer has nothing to answer.`,
      );
      return EXIT.usage;
    }
    const outcome = await runtime.resume({ session: options.session });
    if (outcome.kind === 'nothing') {
      cli.say(outcome.message);
      return EXIT.completed;
    }
    return await endOfRun(cli, outcome.result, options);
  } finally {
    await cli.close();
  }
}

/**
 * Refuses a session id that names no session before the model is resolved: an unknown id is
 * the first thing to fix, not a missing API key.
 */
export async function knownSession(options: StoreCliOptions, reference: string): Promise<void> {
  const { withWorkspace } = await import('./workspace-access.js');
  await withWorkspace(options, { readOnly: true }, (access) => access.sessions.find(reference));
}

async function continueWaiting(
  cli: CliRuntime,
  waiting: WaitingSession,
  options: ResumeCliOptions,
): Promise<number> {
  const terminal = cli.interactive
    ? { input: process.stdin, output: process.stdout, style: styleFor(process.stdout) }
    : undefined;
  const reply = await waitingReply(waiting, options, terminal);
  if (reply === undefined) {
    cli.say(`Session ${waiting.session.id} waits for ${waitingText(waiting)}`);
    for (const line of continueLines(waiting, options)) cli.say(line);
    return EXIT.needsInput;
  }
  return endOfRun(cli, await cli.runtime.continueWaiting(waiting, reply), options);
}

/**
 * The exit code of a run the CLI drove; a run that ended waiting for the user says how to
 * continue it.
 */
export async function endOfRun(
  cli: { runtime: Runtime; say: (text: string) => void; stopRequested?: boolean },
  result: Pick<QueueTaskResult, 'sessionId' | 'status' | 'cancelled'>,
  options: RepeatedOptions,
): Promise<number> {
  if (result.cancelled) return exitCodeFor('stopped');
  if (result.status === 'needs_input') {
    const waiting = await cli.runtime.waitingSession(result.sessionId);
    if (waiting) for (const line of continueLines(waiting, options)) cli.say(line);
    // Ctrl-C at the plan's approval: the plan waits for it, and the run was stopped by the user.
    if (cli.stopRequested) return exitCodeFor('stopped');
  }
  // A run stopped because its output's reader went away (`| head`) stops quietly: nobody reads a hint.
  if (result.status === 'stopped' && !outputClosed() && (await cli.runtime.hasWorkToResume(result.sessionId)))
    cli.say(stoppedContinueLine(result.sessionId, options));
  return exitCodeFor(result.status);
}
