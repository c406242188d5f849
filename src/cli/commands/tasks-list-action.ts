/** What `taskweave tasks list` prints: loaded when it runs, also by the quick path without the store. */

import type { TaskTreeNode } from '../../runtime/books.js';
import { DEFAULT_QUEUE } from '../../runtime/task-labels.js';
import { apiTask } from '../../runtime/wire-shapes.js';
import { sanitizeForTerminal } from '../../util/terminal-text.js';
import type { StoreCliOptions } from '../options.js';
import { renderTaskTable } from '../render/task-output.js';
import { styleFor, terminalColumns } from '../render/terminal.js';
import { wrapWords } from '../render/text-wrap.js';

export type ListOptions = StoreCliOptions & { json?: boolean; queue: string; all?: boolean };

/** Where a listing reads the tasks: the runtime's task board, or the quick path's rows. */
export interface TaskSource {
  list(options: { queue?: string; all?: boolean }): Promise<TaskTreeNode[]>;
}

/** Prints the tasks of a queue still to do (all with --all): a table, or a JSON array with --json. */
export async function listTasks(source: TaskSource, options: ListOptions): Promise<void> {
  const stdout = process.stdout;
  const listed = await source.list({ queue: options.queue, all: options.all });
  if (options.json) {
    stdout.write(
      `${JSON.stringify(
        listed.map((task) => apiTask(task)),
        null,
        2,
      )}\n`,
    );
    return;
  }
  const width = terminalColumns(stdout);
  if (listed.length === 0) {
    const sentences = await emptyListMessage(source, options);
    // On a terminal each sentence starts a line and wraps between words; a pipe gets one line.
    const lines =
      width === undefined ? [sentences.join(' ')] : sentences.flatMap((text) => wrapWords(text, width));
    stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  stdout.write(renderTaskTable({ tasks: sanitizeForTerminal(listed), style: styleFor(stdout), width }));
}

/** What an empty list says, sentence by sentence. */
async function emptyListMessage(source: TaskSource, options: ListOptions): Promise<string[]> {
  const queueFlag = options.queue === DEFAULT_QUEUE ? '' : ` --queue ${options.queue}`;
  const queueName = options.queue === DEFAULT_QUEUE ? 'the queue' : `the queue "${options.queue}"`;
  const howToAdd = `Add one with: taskweave tasks add${queueFlag} "<what to do>"`;
  const finished = options.all ? 0 : (await source.list({ queue: options.queue, all: true })).length;
  if (finished === 0) return [`No tasks in ${queueName} yet.`, howToAdd];
  const count = finished === 1 ? 'its 1 task is' : `all ${finished} of its tasks are`;
  return [
    `Nothing left to do in ${queueName}: ${count} finished (taskweave tasks list --all${queueFlag} shows them).`,
    howToAdd,
  ];
}
