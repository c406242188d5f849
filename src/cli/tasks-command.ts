import type { Command } from 'commander';
import { DEFAULT_QUEUE, type Task } from '../store/schema.js';
import { TaskStoreError } from '../store/task-store.js';
import { EXIT } from './exit-codes.js';
import { resolveIdPrefix, TASK_IDS } from './id-prefix.js';
import { addStoreOptions, type OpenedStore, type StoreCliOptions, withStore } from './store-options.js';
import { shortenLine } from './table.js';
import { renderTaskTable, taskJson } from './task-output.js';
import { styleFor } from './terminal.js';
import { UsageError } from './usage-error.js';

/** The longest title `tasks add` makes from the description when no --title is given. */
export const MAX_DEFAULT_TITLE_CHARS = 80;
/** The result summary of a task completed with no --summary: it was not the agent that did it. */
const MANUAL_COMPLETION_SUMMARY = 'marked completed by hand';

interface JsonOption {
  json?: boolean;
}
interface QueueOption {
  queue: string;
}
type ListOptions = StoreCliOptions & JsonOption & QueueOption & { all?: boolean };
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
      .command('list')
      .description('show the tasks still to do, in the order they will run')
      .option('-a, --all', 'include completed, failed, cancelled and blocked tasks')
      .option('-q, --queue <name>', 'the queue', DEFAULT_QUEUE)
      .option('--json', 'print a JSON array of tasks'),
  ).action(async (options: ListOptions) => {
    await withStore(options, {}, (store) => listTasks(store, options));
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
      .option('--json', 'print the new task as JSON, with its position'),
  ).action(async (words: string[], options: AddOptions) => {
    await withStore(options, { create: true }, (store) => addTask(store, words.join(' '), options));
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
    await changeTask(id, options, (store, taskId) =>
      finishTask(store, taskId, 'complete', options.summary ?? MANUAL_COMPLETION_SUMMARY),
    );
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
    if (options.reason.trim() === '') throw new UsageError('The reason is empty: say why the task failed.');
    await changeTask(id, options, (store, taskId) => finishTask(store, taskId, 'fail', options.reason));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('cancel')
      .description('cancel a task that is not finished; it stays in the list (--all) but never runs')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .option('--json', 'print the updated task as JSON'),
  ).action(async (id: string, options: ChangeOptions) => {
    await changeTask(id, options, (store, taskId) => store.tasks.cancel(taskId));
    setExitCode(EXIT.completed);
  });

  addStoreOptions(
    tasks
      .command('delete')
      .description('remove a task that is not in progress')
      .argument('<id>', 'the task id, or at least 4 characters of its start')
      .option('--json', 'print the deleted task as JSON'),
  ).action(async (id: string, options: ChangeOptions) => {
    await changeTask(id, options, (store, taskId) => store.tasks.delete(taskId), 'deleted');
    setExitCode(EXIT.completed);
  });
}

function listTasks(store: OpenedStore, options: ListOptions): void {
  const stdout = process.stdout;
  const listed = options.all
    ? store.tasks.listAll({ queue: options.queue })
    : store.tasks.listActive(options.queue);
  if (options.json) {
    stdout.write(`${JSON.stringify(listed.map(taskJson), null, 2)}\n`);
    return;
  }
  if (listed.length === 0) {
    stdout.write(`${emptyListMessage(store, options)}\n`);
    return;
  }
  stdout.write(renderTaskTable({ tasks: listed, style: styleFor(stdout) }));
}

function emptyListMessage(store: OpenedStore, options: ListOptions): string {
  const queueFlag = options.queue === DEFAULT_QUEUE ? '' : ` --queue ${options.queue}`;
  const queueName = options.queue === DEFAULT_QUEUE ? 'the queue' : `the queue "${options.queue}"`;
  const howToAdd = `Add one with: taskweave tasks add${queueFlag} "<what to do>"`;
  const finished = options.all ? 0 : store.tasks.listAll({ queue: options.queue }).length;
  if (finished === 0) return `No tasks in ${queueName} yet. ${howToAdd}`;
  const count = finished === 1 ? 'its 1 task is' : `all ${finished} of its tasks are`;
  return `Nothing left to do in ${queueName}: ${count} finished (taskweave tasks list --all${queueFlag} shows them). ${howToAdd}`;
}

function addTask(store: OpenedStore, description: string, options: AddOptions): void {
  if (description.trim() === '') throw new UsageError('The description is empty: say what the task is.');
  const title = options.title === undefined ? defaultTitle(description) : options.title.trim();
  if (title === '') throw new UsageError('The title is empty: give a --title with some words in it.');
  const task = store.tasks.add({ title, description, queue: options.queue });
  const position = store.tasks.listActive(options.queue).findIndex((active) => active.id === task.id) + 1;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...taskJson(task), position }, null, 2)}\n`);
    return;
  }
  const ahead = position - 1;
  const aheadText =
    ahead === 0 ? 'nothing ahead of it' : `${ahead} task${ahead === 1 ? '' : 's'} ahead of it`;
  const queueText = options.queue === DEFAULT_QUEUE ? '' : ` in the queue "${options.queue}"`;
  process.stdout.write(
    `Added ${task.id} "${task.title}": queued${queueText} as #${position}, ${aheadText}.\n`,
  );
}

/** The first line with words in it, shortened. */
function defaultTitle(description: string): string {
  const firstLine = description.split('\n').find((line) => line.trim() !== '') ?? description;
  return shortenLine(firstLine, MAX_DEFAULT_TITLE_CHARS);
}

/** Completes or fails a task by hand; a pending one is started first by the store (one attempt). */
function finishTask(store: OpenedStore, id: string, change: 'complete' | 'fail', text: string): Task {
  const task = store.tasks.get(id);
  if (task !== undefined && task.status !== 'in_progress' && task.status !== 'pending') {
    const past = change === 'complete' ? 'completed' : 'failed';
    throw new UsageError(
      `Cannot mark task ${id} ${past}: it is ${task.status}; only pending or in-progress tasks can be.`,
    );
  }
  return store.tasks.settle(id, change, text);
}

/**
 * Resolves the id prefix, applies a change and prints the task. A refused change (the store's
 * TaskStoreError: unknown task, a status the change does not start from) is a usage error.
 */
async function changeTask(
  input: string,
  options: ChangeOptions,
  change: (store: OpenedStore, id: string) => Task,
  verb?: string,
): Promise<void> {
  const task = await withStore(options, {}, (store) => {
    const id = resolveIdPrefix(store.db, TASK_IDS, input);
    try {
      return change(store, id);
    } catch (error) {
      if (error instanceof TaskStoreError) throw new UsageError(error.message, { cause: error });
      throw error;
    }
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(taskJson(task), null, 2)}\n`);
    return;
  }
  const style = styleFor(process.stdout);
  if (verb !== undefined) {
    process.stdout.write(`${verb} ${task.id} "${task.title}"\n`);
    return;
  }
  const line = `${task.status} ${task.id} "${task.title}"`;
  if (task.status === 'completed') process.stdout.write(`${style.green(`✓ ${line}`)}\n`);
  else if (task.status === 'failed')
    process.stdout.write(`${style.red(`✗ ${line}`)}: ${task.failReason ?? ''}\n`);
  else process.stdout.write(`${line}\n`);
}
