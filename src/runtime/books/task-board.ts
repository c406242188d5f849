import { DEFAULT_QUEUE } from '../../store/defaults.js';
import type { Store } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { RuntimeInputError } from '../setup/errors.js';
import { asUserError } from '../setup/open-store.js';
import { refuseNul } from '../setup/stored-input.js';
import { MAX_DEFAULT_TITLE_CHARS } from '../setup/task-defaults.js';
import { listedTasks, type TaskTreeNode, taskTree } from './task-tree.js';

export { type TaskTreeNode, taskTree } from './task-tree.js';

/** The result summary of a task completed by hand with no summary: it was not the agent that did it. */
export const MANUAL_COMPLETION_SUMMARY = 'marked completed by hand';

/**
 * The persistent to-do list as front ends manage it, with the same rules everywhere (CLI,
 * server): ids may be unique prefixes, a finished task cannot be finished again, a running task
 * is cancelled (its worker stops it) before it can be deleted.
 */
export class TaskBoard {
  constructor(private readonly store: Store) {}

  /**
   * The goals of a queue still to do (pending, in progress, or blocked while their session waits
   * for the user) in the order they run, or every goal with `all`; each with the tasks of the
   * plans it made under it (taskTree).
   */
  async list(options: { queue?: string; all?: boolean } = {}): Promise<TaskTreeNode[]> {
    return listedTasks(await this.store.tasks.listAll(), options);
  }

  /** Every task of every queue: goals with the tasks of their plans. */
  listEverything(): Promise<Task[]> {
    return this.store.tasks.listAll();
  }

  /** Every goal with the tasks of its plans under it (see taskTree). */
  async tree(): Promise<TaskTreeNode[]> {
    return taskTree(await this.store.tasks.listAll());
  }

  /** What the runs of each of these goals used: tokens and cost (see UsageStore.byTask). */
  usage(taskIds: string[]) {
    return this.store.usage.byTask(taskIds);
  }

  /** A plan with its tasks (and their dependencies, by the plan's keys). */
  async plan(id: string) {
    const plan = await this.store.plans.getPlan(id);
    if (plan === undefined)
      throw new RuntimeInputError(`There is no plan with the id ${id}.`, { code: 'not_found' });
    return { plan, tasks: await this.store.plans.planTasks(id) };
  }

  get(id: string): Promise<Task | undefined> {
    return this.store.tasks.get(id);
  }

  /** The full id a user means by an id or a unique prefix of it. */
  resolve(input: string): Promise<string> {
    return asUserError(() => this.store.tasks.resolveId(input));
  }

  /** Adds a task at the end of its queue; returns it with its place in line. */
  async add(input: { description: string; title?: string; queue?: string }) {
    const description = input.description;
    if (description.trim() === '')
      throw new RuntimeInputError('The description is empty: say what the task is.');
    const title = input.title === undefined ? defaultTitle(description) : input.title.trim();
    if (title === '') throw new RuntimeInputError('The title is empty: give a title with some words in it.');
    refuseNul(description, 'the description');
    refuseNul(title, 'the title');
    const queue = input.queue ?? DEFAULT_QUEUE;
    const task = await this.store.tasks.add({ title, description, queue });
    const position =
      (await this.store.tasks.listActive(queue)).findIndex((active) => active.id === task.id) + 1;
    return { task, position };
  }

  /** Completes or fails a pending or in-progress task by hand (a pending one counts one attempt). */
  async finish(input: string, change: 'complete' | 'fail', text?: string): Promise<Task> {
    const id = await this.resolve(input);
    const task = await this.store.tasks.get(id);
    if (task !== undefined && task.status !== 'in_progress' && task.status !== 'pending') {
      const past = change === 'complete' ? 'completed' : 'failed';
      throw new RuntimeInputError(
        `Cannot mark task ${id} ${past}: it is ${task.status}; only pending or in-progress tasks can be.`,
        { code: 'conflict' },
      );
    }
    if (change === 'fail' && (text ?? '').trim() === '')
      throw new RuntimeInputError('The reason is empty: say why the task failed.');
    const summary = change === 'complete' ? (text ?? MANUAL_COMPLETION_SUMMARY) : (text ?? '');
    return asUserError(() => this.store.tasks.settle(id, change, summary));
  }

  /** Cancels a task that is not finished; a running one is stopped by its worker at its next step. */
  async cancel(input: string): Promise<Task> {
    const id = await this.resolve(input);
    return asUserError(() => this.store.tasks.cancel(id));
  }

  /** Removes a task that is not in progress. */
  async delete(input: string): Promise<Task> {
    const id = await this.resolve(input);
    return asUserError(() => this.store.tasks.delete(id));
  }
}

/** The first line with words in it, shortened to MAX_DEFAULT_TITLE_CHARS. */
export function defaultTitle(description: string): string {
  const firstLine = (description.split('\n').find((line) => line.trim() !== '') ?? description)
    .replace(/\s+/g, ' ')
    .trim();
  return firstLine.length <= MAX_DEFAULT_TITLE_CHARS
    ? firstLine
    : `${firstLine.slice(0, MAX_DEFAULT_TITLE_CHARS - 1)}…`;
}
