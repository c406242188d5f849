import { type Runtime, RuntimeInputError, type Submission } from '../../runtime/index.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { CliRuntime } from '../interactive/cli-runtime.js';
import type { RunCliOptions } from '../options.js';
import { goalWithPipedInput, readPipedInput } from './piped-input.js';
import { repoOrQueue } from './repo-option.js';
import { endOfRun, knownSession } from './resume-action.js';

/** `taskweave run`: submits the goal through the runtime and renders what happens. */
export async function runGoal(typedGoal: string, options: RunCliOptions): Promise<number> {
  const piped = await readPipedInput();
  const goal = piped === undefined ? typedGoal : goalWithPipedInput(typedGoal, piped);
  if (options.resume !== undefined && options.resume !== 'last') await knownSession(options, options.resume);
  const queue = options.repo === undefined ? undefined : await repoOrQueue(options);
  const cli = await CliRuntime.open(options);
  try {
    const { runtime } = cli;
    const sessionId =
      options.resume === undefined ? undefined : await resumedSession(runtime, options.resume);
    const submission = await runtime.submit(goal, {
      sessionId,
      interrupt: options.interrupt,
      ...(queue === undefined ? {} : { queue, forWorkers: true }),
    });
    if (submission.kind === 'queued') return await waitForTurn(cli, submission, options);
    const { result, drained } = await submission.done;
    if (drained?.stopped) return exitCodeFor('stopped');
    return await endOfRun(cli, result, options);
  } finally {
    await cli.close();
  }
}

/**
 * A request queued behind a task another process runs: with `--no-wait` it only stays queued
 * (exit code 5); otherwise this process waits for its turn and shows its own request's events,
 * and ends with its exit code.
 */
async function waitForTurn(
  cli: CliRuntime,
  submission: Extract<Submission, { kind: 'queued' }>,
  options: RunCliOptions,
): Promise<number> {
  const { running, position, task } = submission;
  if (submission.forWorkers) return followForWorkers(cli, submission, options);
  const ahead = `A task is running in this workspace${running ? ` ("${running.title}")` : ''}.`;
  if (!options.wait) {
    cli.say(
      `${ahead} Your request was queued as #${position} (task ${task.id}, session ${task.sessionId}); ` +
        'the running worker takes it after the work ahead of it. Follow it with: ' +
        `taskweave sessions show ${task.sessionId} --events`,
    );
    return EXIT.queued;
  }
  cli.say(
    `${ahead} Your request is #${position} in the queue (task ${task.id}): waiting for its turn; ` +
      'its steps show here as it runs. Ctrl-C cancels it; --no-wait only queues it; --interrupt stops the running task instead.',
  );
  const outcome = await cli.runtime.waitForTurn(submission, (event) => cli.follow(event));
  if (outcome.kind === 'ran_here') {
    const { result, drained } = outcome.outcome;
    if (drained?.stopped) return exitCodeFor('stopped');
    return endOfRun(cli, result, options);
  }
  sayCancelledInQueue(cli, outcome, task.id);
  return endOfRun(cli, outcome, options);
}

/** Ctrl-C while the request waited for its turn (or for a worker): it was cancelled, and is said so. */
function sayCancelledInQueue(
  cli: CliRuntime,
  outcome: { cancelled?: boolean; status: string },
  taskId: string,
): void {
  if (outcome.cancelled && cli.stopRequested && outcome.status === 'stopped')
    cli.say(`Cancelled your queued request (task ${taskId}).`);
}

/**
 * `run --repo`: the goal is queued for the repository's workers (on any machine); this process
 * shows its steps as a worker runs them and ends with its exit code (with `--no-wait` it only
 * says where it was queued, exit code 5).
 */
async function followForWorkers(
  cli: CliRuntime,
  submission: Extract<Submission, { kind: 'queued' }>,
  options: RunCliOptions,
): Promise<number> {
  const { position, task } = submission;
  const { shownRemote } = await import('../../runtime/repositories.js');
  const where = `Queued for the workers of ${shownRemote(options.repo ?? '')} as #${position} (task ${task.id}, session ${task.sessionId})`;
  if (!options.wait) {
    cli.say(`${where}. Follow it with: taskweave sessions show ${task.sessionId} --events`);
    return EXIT.queued;
  }
  cli.say(`${where}: its steps show here as a worker runs them. Ctrl-C cancels it.`);
  const outcome = await cli.runtime.waitForTurn(submission, (event) => cli.follow(event));
  if (outcome.kind === 'ran_here') return endOfRun(cli, outcome.outcome.result, options);
  sayCancelledInQueue(cli, outcome, task.id);
  return endOfRun(cli, outcome, options);
}

/** The session `--resume` names: "last", a full id or a unique prefix. */
async function resumedSession(runtime: Runtime, reference: string): Promise<string> {
  try {
    return (await runtime.sessions.find(reference)).id;
  } catch (error) {
    if (reference === 'last' && error instanceof RuntimeInputError)
      throw new RuntimeInputError('There is no session to resume in this workspace yet.');
    throw error;
  }
}
