import { CliRuntime } from './cli-runtime.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import type { ResumeCliOptions } from './options.js';

/** `taskweave resume`: continues what a crash left unfinished, through the runtime. */
export async function resumeWork(options: ResumeCliOptions): Promise<number> {
  const cli = await CliRuntime.open(options);
  try {
    const outcome = await cli.runtime.resume({ session: options.session });
    if (outcome.kind === 'nothing') {
      cli.say(outcome.message);
      return EXIT.completed;
    }
    return outcome.result.cancelled ? exitCodeFor('stopped') : exitCodeFor(outcome.result.status);
  } finally {
    await cli.close();
  }
}
