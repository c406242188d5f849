import type { Command } from 'commander';
import { addStoreOptions } from '../options.js';
import { parseCheckpointNumber, parsePositiveInt } from '../usage-error.js';
import type { CheckpointsOptions, RestoreCliOptions, RewindCliOptions } from './checkpoints-action.js';

/** The word for the most recently active session. */
const LAST_SESSION = 'last';
const SESSION_ARGUMENT = `the session id (at least 4 characters of its start), or "${LAST_SESSION}" (default)`;

/** Adds `taskweave checkpoints`, `undo`, `redo` and `rewind` to the program. */
export function addCheckpointCommands(program: Command, setExitCode: (code: number) => void): void {
  addStoreOptions(
    program
      .command('checkpoints')
      .description(
        'list the steps of a session that changed files, with the files each changed (+added ~modified -deleted)',
      )
      .argument('[session]', SESSION_ARGUMENT, LAST_SESSION)
      .option('--prune', 'remove the checkpoints of sessions idle longer than checkpoints.keepDays (30) now')
      .option(
        '--keep-days <n>',
        'with --prune: keep the sessions active in the last n days',
        parsePositiveInt,
      )
      .option('--json', 'print JSON'),
  ).action(async (session: string, options: CheckpointsOptions) => {
    const { checkpointsAction } = await import('./checkpoints-action.js');
    setExitCode(await checkpointsAction(session, options));
  });

  addStoreOptions(
    program
      .command('undo')
      .description(
        'undo the last step that changed files: each file back as it was, where it is still as taskweave left it',
      )
      .argument('[session]', SESSION_ARGUMENT, LAST_SESSION)
      .option('--force', 'also put back files changed since taskweave left them (their changes are lost)')
      .option('--json', 'print what was done as JSON'),
  ).action(async (session: string, options: RestoreCliOptions) => {
    const { restoreAction } = await import('./checkpoints-action.js');
    setExitCode(await restoreAction('undo', session, options));
  });

  addStoreOptions(
    program
      .command('redo')
      .description('put back what the last undo or rewind took back')
      .argument('[session]', SESSION_ARGUMENT, LAST_SESSION)
      .option('--force', 'also overwrite files changed since the undo')
      .option('--json', 'print what was done as JSON'),
  ).action(async (session: string, options: RestoreCliOptions) => {
    const { restoreAction } = await import('./checkpoints-action.js');
    setExitCode(await restoreAction('redo', session, options));
  });

  addStoreOptions(
    program
      .command('rewind')
      .description(
        'put every file back as it was before a checkpoint (or a plan task), and the conversation too',
      )
      .argument('[session]', SESSION_ARGUMENT, LAST_SESSION)
      .option(
        '--to <checkpoint>',
        'the checkpoint to go back to: its number in taskweave checkpoints (2 or #2)',
        parseCheckpointNumber,
      )
      .option('--task <id>', "only that plan task's changes (from --to on, when given)")
      .option('--code-only', 'put files back, keep the conversation')
      .option('--conversation-only', 'rewind the conversation, keep the files')
      .option('--force', 'also put back files changed since taskweave left them (their changes are lost)')
      .option('--json', 'print what was done as JSON'),
  ).action(async (session: string, options: RewindCliOptions) => {
    const { restoreAction } = await import('./checkpoints-action.js');
    setExitCode(await restoreAction('rewind', session, options));
  });
}
