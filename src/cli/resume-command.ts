import type { Command } from 'commander';
import { addAgentOptions, type ResumeCliOptions } from './options.js';

/** Adds `taskweave resume`: continues an interrupted run or plan in the workspace. */
export function addResumeCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('resume')
      .description(
        'continue the interrupted run or plan of the workspace: completed tasks stay done, the interrupted task goes on, pending tasks run',
      ),
  )
    .option(
      '--session <id>',
      'the session to continue (id, unique prefix or "last"); default: the latest with unfinished work',
    )
    .action(async (options: ResumeCliOptions) => {
      const { resumeWork } = await import('./resume-action.js');
      setExitCode(await resumeWork(options));
    });
}
