import { type FormEvent, useState } from 'react';
import type { ApiTask } from '../../../src/events/api.js';
import { formatDollars, formatWhen } from '../chat/format.js';
import { Markdown } from '../chat/markdown.js';
import { api } from '../connection/api.js';
import { usePolled } from './use-polled.js';

/** How often the board reloads (tasks added in a terminal have no event on this page). */
const BOARD_REFRESH_MS = 2000;

const OPEN: ApiTask['status'][] = ['pending', 'in_progress', 'blocked'];

const tokenCount = new Intl.NumberFormat('en');

/** The persistent to-do list: goals with their plan tasks; add, complete, cancel, delete; live. */
export function TaskBoard({ trigger }: { trigger: unknown }) {
  const { data, error, reload } = usePolled(() => api.tasks(), { intervalMs: BOARD_REFRESH_MS, trigger });
  const [actionError, setActionError] = useState<string>();
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setActionError(undefined);
    } catch (failure) {
      setActionError(failure instanceof Error ? failure.message : String(failure));
    }
    await reload();
  };
  return (
    <section className="page task-board" aria-label="Task board">
      <h1>To-do list</h1>
      <AddTask onAdd={(description) => act(() => api.addTask({ description }))} />
      {(error ?? actionError) && (
        <p role="alert" className="error">
          {actionError ?? error}
        </p>
      )}
      {data === undefined ? (
        <p className="muted">Loading…</p>
      ) : data.tasks.length === 0 ? (
        <p className="muted">No tasks yet. Add one above, or give a goal in a session.</p>
      ) : (
        <ul className="task-list">
          {data.tasks.map((task) => (
            <TaskRow key={task.id} task={task} act={act} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AddTask({ onAdd }: { onAdd: (description: string) => void }) {
  const [description, setDescription] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (description.trim() === '') return;
    onAdd(description.trim());
    setDescription('');
  };
  return (
    <form className="add-task" onSubmit={submit}>
      <input
        aria-label="New task"
        placeholder="Add a task to the queue…"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <button type="submit" className="primary" disabled={description.trim() === ''}>
        Add
      </button>
    </form>
  );
}

function TaskRow({ task, act }: { task: ApiTask; act: (action: () => Promise<unknown>) => void }) {
  const open = OPEN.includes(task.status);
  // A stopped goal waits for `taskweave resume`; it can be cancelled, not completed by hand.
  const cancellable = open || task.status === 'stopped';
  return (
    <li className={`task-row state-${task.status}`} aria-label={`Task ${task.title}`}>
      <div className="task-row-main">
        <span className={`state-chip state-${task.status}`}>{task.status.replace('_', ' ')}</span>
        <span className="task-title" title={task.description}>
          {task.key && <span className="badge badge-task">{task.key}</span>} {shownTitle(task)}
        </span>
        <span className="muted small" title={new Date(task.updated_at).toLocaleString()}>
          added {formatWhen(task.created_at)}
          {task.updated_at !== task.created_at && ` · updated ${formatWhen(task.updated_at)}`}
        </span>
        {task.usage && (
          <span className="muted small task-usage" title="tokens in / out of its runs, and their cost">
            {tokenCount.format(task.usage.input_tokens)} in / {tokenCount.format(task.usage.output_tokens)}{' '}
            out tokens
            {task.usage.cost !== null && ` · ${formatDollars(task.usage.cost)}`}
          </span>
        )}
        {task.plan_id === null && (
          <span className="button-row">
            {open && (
              <button type="button" onClick={() => act(() => api.completeTask(task.id))}>
                Complete
              </button>
            )}
            {cancellable && (
              <button type="button" onClick={() => act(() => api.cancelTask(task.id))}>
                Cancel
              </button>
            )}
            {task.status !== 'in_progress' && (
              <button
                type="button"
                className="quiet-danger"
                aria-label={`Delete ${task.title}`}
                onClick={() => act(() => api.deleteTask(task.id))}
              >
                Delete
              </button>
            )}
          </span>
        )}
        {task.session_id && (
          <a className="small" href={`#/s/${encodeURIComponent(task.session_id)}`}>
            session
          </a>
        )}
      </div>
      {task.result_summary && (
        <div className="small task-summary">
          <Markdown text={task.result_summary} />
        </div>
      )}
      {task.fail_reason && <p className="small error task-reason">{task.fail_reason}</p>}
      {task.tasks && task.tasks.length > 0 && (
        <ul className="task-list nested">
          {task.tasks.map((child) => (
            <TaskRow key={child.id} task={child} act={act} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * A title the queue cut from a long goal (the start of its first line) is shown as that whole
 * first line instead: the row wraps it, two lines at most, and the whole goal is in the tooltip.
 */
function shownTitle(task: ApiTask): string {
  const firstLine = (task.description.split('\n').find((line) => line.trim() !== '') ?? '').trim();
  const kept = task.title.replace(/…$/, '');
  return firstLine.length > kept.length && firstLine.startsWith(kept) ? firstLine : task.title;
}
