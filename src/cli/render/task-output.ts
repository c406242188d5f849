import type { Task, TaskStatus, TaskTreeNode } from '../../runtime/index.js';
import { NEEDS_INPUT_PREFIX } from '../../runtime/task-labels.js';
import { shortId } from '../../util/short-id.js';
import { relativeTime } from './relative-time.js';
import { renderTable, shortenLine } from './table.js';
import type { Style } from './terminal.js';

/** The widest a title gets in the table; the full title is in `--json`. */
const TITLE_COLUMN_CHARS = 60;

/** The colour of a status on a terminal. */
export function paintStatus(status: TaskStatus, style: Style): (text: string) => string {
  switch (status) {
    case 'completed':
      return style.green;
    case 'failed':
      return style.red;
    case 'in_progress':
    case 'blocked':
    case 'stopped':
      return style.yellow;
    case 'skipped':
    case 'cancelled':
      return style.dim;
    case 'pending':
      return style.cyan;
  }
}

export interface TaskTableOptions {
  /** Goals with the tasks of their plans (shown indented under them), or plain tasks. */
  tasks: readonly (Task | TaskTreeNode)[];
  style: Style;
  now?: number;
  /** The terminal's width: titles are cut so that each row fits on one line. */
  width?: number;
}

/**
 * The to-do list as a table. `#` is a task's place in line among the active (pending and in
 * progress) tasks, the number `tasks add` reports; finished tasks have none.
 */
export function renderTaskTable(options: TaskTableOptions): string {
  const { style } = options;
  const now = options.now ?? Date.now();
  let position = 0;
  const row = (task: Task, child: boolean) => {
    const active = !child && (task.status === 'pending' || task.status === 'in_progress');
    if (active) position += 1;
    const title = child
      ? `  └ ${shortenLine(task.title, TITLE_COLUMN_CHARS - 4)}`
      : shortenLine(task.title, TITLE_COLUMN_CHARS);
    return [
      active ? String(position) : '',
      shortId(task.id, 'task'),
      { text: statusText(task), paint: paintStatus(task.status, style) },
      title,
      String(task.attempts),
      relativeTime(task.updatedAt, now),
    ];
  };
  const rows = options.tasks.flatMap((task) => [
    row(task, false),
    ...('tasks' in task && task.tasks ? task.tasks.map((child) => row(child, true)) : []),
  ]);
  return renderTable({
    columns: [
      { header: '#', align: 'right' },
      { header: 'id' },
      { header: 'status' },
      { header: 'title', fit: true },
      { header: 'attempts', align: 'right' },
      { header: 'updated' },
    ],
    rows,
    paintHeader: style.dim,
    width: options.width,
  });
}

/** A task's status; a goal blocked while its session waits for the user says so. */
function statusText(task: Task): string {
  return task.status === 'blocked' && task.failReason?.startsWith(NEEDS_INPUT_PREFIX)
    ? 'blocked (needs input)'
    : task.status;
}
