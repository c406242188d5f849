import { type Runtime, RuntimeInputError } from '../runtime/index.js';
import { CliRuntime } from './cli-runtime.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import type { RunCliOptions } from './options.js';
import { goalWithPipedInput, readPipedInput } from './piped-input.js';
import { endOfRun } from './resume-action.js';

/** `taskweave run`: submits the goal through the runtime and renders what happens. */
export async function runGoal(typedGoal: string, options: RunCliOptions): Promise<number> {
  const piped = await readPipedInput();
  const goal = piped === undefined ? typedGoal : goalWithPipedInput(typedGoal, piped);
  const cli = await CliRuntime.open(options);
  try {
    const { runtime } = cli;
    const sessionId =
      options.resume === undefined ? undefined : await resumedSession(runtime, options.resume);
    const submission = await runtime.submit(goal, { sessionId, interrupt: options.interrupt });
    if (submission.kind === 'queued') {
      const { running, position, task } = submission;
      cli.say(
        `A task is running in this workspace${running ? ` ("${running.title}")` : ''}. Your request was queued as #${position} ` +
          `(task ${task.id}); the running worker takes it after the work ahead of it. ` +
          'Use --interrupt to stop the running task instead.',
      );
      return EXIT.completed;
    }
    const { result, drained } = await submission.done;
    if (drained?.stopped) return exitCodeFor('stopped');
    return await endOfRun(cli, result, options);
  } finally {
    await cli.close();
  }
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
