import type { Command } from 'commander';
import { DEFAULT_QUEUE, MAX_DEFAULT_TITLE_CHARS } from '../../runtime/defaults.js';
import type { Task } from '../../runtime/index.js';
import { apiTask } from '../../runtime/wire-shapes.js';
import { writeTerminal } from '../../util/terminal-write.js';
import { EXIT } from '../exit-codes.js';
import { addStoreOptions, type StoreCliOptions } from '../options.js';
import { styleFor } from '../render/terminal.js';
import { REPO_OPTION_HELP, repoOrQueue } from './repo-option.js';
import type { ListOptions } from './tasks-list-action.js';
import type { WorkspaceAccess } from './workspace-access.js';

/** Opens the workspace (loaded when a command runs, not for --help) and runs `work` with it. */
async function withWorkspace<T>(
  options: StoreCliOptions,
  openOptions: { create?: boolean; readOnly?: boolean },
  work: (access: WorkspaceAccess) => Promise<T>,
): Promise<T> {
  const access = await import('./workspace-access.js');
  return access.withWorkspace(options, openOptions, work);
}
interface JsonOption {
  json?: boolean;
}
interface QueueOption {
  queue: string;
  /** `--repo <remote>`: the repository's queue (a shared store). */
  repo?: string;
}
type AddOptions = StoreCliOptions & JsonOption & QueueOption & { title?: string };
type CompleteOptions = StoreCliOptions & JsonOption & { summary?: string };
type FailOptions = StoreCliOptions & JsonOption & { reason: string };
type ChangeOptions = StoreCliOptions & JsonOption;

/** Adds `taskweave tasks` (list, add, complete, fail, cancel, delete) to the program. */
export function addTasksCommand(program: Command, setExitCode: (code: number) => void): void {
  const tasks = program
    .command('tasks')
    .description('the persistent to-do list that `taskweave work` drains, one task after another');

  addStoreOptions(
    tasks
      .command('list', { isDefault: true })
      .description('show the tasks still to do, in the order they will run')
      .option('-a, --all', 'include completed, failed, cancelled and blocked tasks')
      .option('-q, --queue <name>', 'the queue', DEFAULT_QUEUE)
      .option('--repo <remote>', REPO_OPTION_HELP)
      .option('--json', 'print a JSON array of tasks'),
  ).action(async (options: ListOptions & { repo?: string }) => {
    options.queue = await repoOrQueue(options);
    const { listTasks } = await import('./tasks-list-action.js');
    await withWorkspace(options, { readOnly: true }, (access) => listTasks(access.tasks, options));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('add')
      .description('add a task at the end of the queue')
      .argument('<description...>', 'what to do, in plain words')
      .option(
        '-t, --title <title>',
        `a short title (default: the first line, up to ${MAX_DEFAULT_TITLE_CHARS} chars)`,
      )
      .option('-q, --queue <name>', 'the queue', DEFAULT_QUEUE)
      .option('--repo <remote>', REPO_OPTION_HELP)
      .option('--json', 'print the new task as JSON, with its position'),
  ).action(async (words: string[], options: AddOptions) => {
    options.queue = await repoOrQueue(options);
    await withWorkspace(options, { create: true }, (access) => addTask(access, words.join(' '), options));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('complete')
      .description('mark a task completed (a pending one too: it was done by hand)')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .option('-s, --summary <text>', 'what was done')
      .option('--json', 'print the updated task as JSON'),
  ).action(async (id: string, options: CompleteOptions) => {
    await changeTask(options, (access) => access.tasks.finish(id, 'complete', options.summary));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('fail')
      .description('mark a task failed, with the reason')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .requiredOption('-r, --reason <text>', 'why it failed')
      .option('--json', 'print the updated task as JSON'),
  ).action(async (id: string, options: FailOptions) => {
    await changeTask(options, (access) => access.tasks.finish(id, 'fail', options.reason));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('cancel')
      .description('cancel a task that is not finished; it stays in the list (--all) but never runs')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .option('--json', 'print the updated task as JSON'),
  ).action(async (id: string, options: ChangeOptions) => {
    await changeTask(options, (access) => access.tasks.cancel(id));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('delete')
      .description('remove a task that is not in progress')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .option('--json', 'print the deleted task as JSON'),
  ).action(async (id: string, options: ChangeOptions) => {
    await changeTask(options, (access) => access.tasks.delete(id), 'deleted');
    setExitCode(EXIT.completed);
  });
}

async function addTask(access: WorkspaceAccess, description: string, options: AddOptions): Promise<void> {
  const { task, position } = await access.tasks.add({
    description,
    title: options.title,
    queue: options.queue,
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...apiTask(task), position }, null, 2)}\n`);
    return;
  }
  const ahead = position - 1;
  const aheadText =
    ahead === 0 ? 'nothing ahead of it' : `${ahead} task${ahead === 1 ? '' : 's'} ahead of it`;
  const queueText = options.queue === DEFAULT_QUEUE ? '' : ` in the queue "${options.queue}"`;
  writeTerminal(
    process.stdout,
    `Added ${task.id} "${task.title}": queued${queueText} as #${position}, ${aheadText}.\n`,
  );
}

/** Applies a change through the runtime's task board (its refusals are usage errors) and prints the task. */
async function changeTask(
  options: ChangeOptions,
  change: (access: WorkspaceAccess) => Promise<Task>,
  verb?: string,
): Promise<void> {
  const task = await withWorkspace(options, {}, change);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(apiTask(task), null, 2)}\n`);
    return;
  }
  const style = styleFor(process.stdout);
  if (verb !== undefined) {
    writeTerminal(process.stdout, `${verb} ${task.id} "${task.title}"\n`);
    return;
  }
  const line = `${task.status} ${task.id} "${task.title}"`;
  if (task.status === 'completed') writeTerminal(process.stdout, `${style.green(`✓ ${line}`)}\n`);
  else if (task.status === 'failed')
    writeTerminal(process.stdout, `${style.red(`✗ ${line}`)}: ${task.failReason ?? ''}\n`);
  else writeTerminal(process.stdout, `${line}\n`);
}
