import type { Command } from 'commander';
import { DEFAULT_QUEUE } from '../../runtime/defaults.js';
import { addAgentOptions, type WorkCliOptions } from '../options.js';
import { REPO_OPTION_HELP } from './repo-option.js';

/** Adds `taskweave work`: drains the task queue, one task after another. */
export function addWorkCommand(program: Command, setExitCode: (code: number) => void): void {
  addAgentOptions(
    program
      .command('work')
      .description(
        'work the task queue: run its pending tasks one after another with the agent, until it is empty',
      ),
  )
    .option('--queue <name>', 'the queue to work', DEFAULT_QUEUE)
    .option(
      '--repo <remote>',
      `${REPO_OPTION_HELP}; the work runs in this machine's own clone of it, goal and task branches fetched from and pushed to it (repeat it to work several repositories, one task at a time)`,
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--clones <folder>',
      'where --repo keeps its clones (default $TASKWEAVE_CLONES, else $XDG_DATA_HOME/taskweave/clones, else ~/.local/share/taskweave/clones)',
    )
    .option(
      '--watch',
      'keep running when the queue is empty: a task added later starts at once (Ctrl-C ends)',
    )
    .option(
      '--trust-db',
      "the database was created for another folder (copied or cloned here): make it this workspace's and work the tasks queued in it",
    )
    .action(async (options: WorkCliOptions) => {
      // The sandbox's probe (a process of its own) runs while the queue's code loads, not after it.
      const { probeSandboxAhead } = await import('../../runtime/sandbox-probe.js');
      probeSandboxAhead(options.sandbox);
      const { workQueue } = await import('./work-action.js');
      setExitCode(await workQueue(options));
    });
}
