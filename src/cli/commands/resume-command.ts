import type { Command } from 'commander';
import { addAgentOptions, type ResumeCliOptions } from '../options.js';

/** Adds `taskweave resume`: continues an interrupted run or plan in the workspace. */
export function addResumeCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('resume')
      .description(
        'continue a session that waits for you (a question, a plan or a call to approve: asked on a terminal, or given with --answer, --yes, --approval), or the interrupted run or plan of the workspace: completed tasks stay done, the interrupted task goes on, pending tasks run',
      )
      .argument(
        '[session]',
        'the session to continue (id, unique prefix or "last"); default: the latest with work left',
      ),
  )
    .option('--session <id>', 'the same as the [session] argument')
    .option('--answer <text>', 'the answer to the question the session waits for (without a terminal)')
    .addHelpText(
      'after',
      `
Examples:
  taskweave resume                                   continue the latest session with work left
  taskweave resume ses_4k9v0q2m --answer "PostgreSQL" answer its question and continue
  taskweave resume ses_4k9v0q2m --yes                approve its proposed plan and run it
  taskweave resume ses_4k9v0q2m --approval auto      allow the call it waits for and continue`,
    )
    .action(async (session: string | undefined, options: ResumeCliOptions) => {
      const { resumeWork } = await import('./resume-action.js');
      setExitCode(await resumeWork({ ...options, session: session ?? options.session }));
    });
}
