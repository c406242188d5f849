import { type GoalStart, type Runtime, RuntimeInputError } from '../../runtime/index.js';
import { attachedImageLine, attachImageFiles } from '../attach-images.js';
import { EXIT } from '../exit-codes.js';
import { CliRuntime } from '../interactive/cli-runtime.js';
import type { RunCliOptions } from '../options.js';
import { goalWithPipedInput, readPipedInput } from './piped-input.js';
import { repoOrQueue } from './repo-option.js';
import { endOfRun, knownSession } from './resume-action.js';

/** `taskweave run`: runs the goal through the SDK's face (`Taskweave.run`) and renders what happens. */
export async function runGoal(typedGoal: string, options: RunCliOptions): Promise<number> {
  const piped = await readPipedInput();
  const goal = piped === undefined ? typedGoal : goalWithPipedInput(typedGoal, piped);
  if (options.resume !== undefined && options.resume !== 'last') await knownSession(options, options.resume);
  const queue = options.repo === undefined ? undefined : await repoOrQueue(options);
  const cli = await CliRuntime.open(options);
  try {
    const { taskweave } = cli;
    const session =
      options.resume === undefined ? undefined : await resumedSession(cli.runtime, options.resume);
    const images = await attachImageFiles(cli.runtime, options.image ?? [], process.cwd());
    for (const image of images) cli.say(attachedImageLine(image));
    const run = taskweave.run(goal, {
      ...(images.length === 0 ? {} : { images: images.map((image) => image.hash) }),
      ...(session === undefined ? {} : { session }),
      ...(options.interrupt ? { interrupt: true } : {}),
      ...(queue === undefined ? {} : { queue, forWorkers: true }),
      wait: options.wait,
      // A goal another process runs shows here like this process's own.
      following: (event) => cli.follow(event),
    });
    const start = await run.started;
    // Its runs while it waits in the queue: none more means Ctrl-C cancelled it before its turn.
    const runsQueued = start.position > 0 ? await runCount(cli.runtime, start.sessionId) : undefined;
    if (start.position > 0) await sayQueued(cli, start, options);
    const { sessionId, status, stopped, sessionRemoved } = await run.settled;
    if (status === 'queued') return EXIT.queued;
    if (
      stopped &&
      cli.stopRequested &&
      (sessionRemoved || runsQueued === (await runCount(cli.runtime, sessionId)))
    )
      cli.say(`Cancelled your queued request (task ${start.taskId}).`);
    return await endOfRun(cli, { sessionId, status, cancelled: stopped }, options);
  } finally {
    await cli.close();
  }
}

/**
 * A request queued behind a task another process runs: with `--no-wait` it only stays queued
 * (exit code 5); otherwise this process waits for its turn and shows its own request's events,
 * and ends with its exit code. `run --repo` queues it for the repository's workers (on any
 * machine) and shows its steps as a worker runs them.
 */
async function sayQueued(cli: CliRuntime, start: GoalStart, options: RunCliOptions): Promise<void> {
  const { position, taskId, sessionId, running } = start;
  if (options.repo !== undefined) {
    const { shownRemote } = await import('../../runtime/repositories.js');
    const where = `Queued for the workers of ${shownRemote(options.repo)} as #${position} (task ${taskId}, session ${sessionId})`;
    cli.say(
      options.wait
        ? `${where}: its steps show here as a worker runs them. Ctrl-C cancels it.`
        : `${where}. Follow it with: taskweave sessions show ${sessionId} --events`,
    );
    return;
  }
  const ahead = `A task is running in this workspace${running ? ` ("${running}")` : ''}.`;
  cli.say(
    options.wait
      ? `${ahead} Your request is #${position} in the queue (task ${taskId}): waiting for its turn; ` +
          'its steps show here as it runs. Ctrl-C cancels it; --no-wait only queues it; --interrupt stops the running task instead.'
      : `${ahead} Your request was queued as #${position} (task ${taskId}, session ${sessionId}); ` +
          'the running worker takes it after the work ahead of it. Follow it with: ' +
          `taskweave sessions show ${sessionId} --events`,
  );
}

async function runCount(runtime: Runtime, sessionId: string): Promise<number> {
  return (await runtime.sessions.summary(sessionId)).runCount;
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
