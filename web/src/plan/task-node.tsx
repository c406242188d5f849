import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import type { PlanNodeView } from '../../../src/events/session-view.js';
import type { PlanTask } from '../../../src/plan/task-graph.js';
import { formatDollars, formatDuration } from '../chat/format.js';
import { useNow } from '../chat/use-now.js';
import type { LayoutDirection } from './layout.js';

/** What a task node draws. */
export interface TaskNodeData extends Record<string, unknown> {
  task: PlanTask;
  node: PlanNodeView;
  critical: boolean;
  selected: boolean;
  /** Which way the graph's layers go: arrows enter and leave on that axis. */
  direction: LayoutDirection;
}

export type TaskNodeType = Node<TaskNodeData, 'task'>;

const STATE_TEXT: Record<string, string> = {
  pending: 'pending',
  in_progress: 'running',
  completed: 'completed',
  failed: 'failed',
  blocked: 'blocked',
  skipped: 'skipped',
  cancelled: 'cancelled',
};

/**
 * A task of the plan: title, check command, state (running with its elapsed time). Its button's
 * click (also by keyboard) reaches the graph's onNodeClick, which selects the task.
 */
export function TaskNode({ data }: NodeProps<TaskNodeType>) {
  const { task, node, critical, selected, direction } = data;
  const down = direction === 'DOWN';
  const state = STATE_TEXT[node.state] ?? node.state;
  return (
    <div
      className={`task-node state-${node.state}${critical ? ' critical' : ''}${selected ? ' selected' : ''}`}
      data-task-id={task.id}
      data-state={node.state}
    >
      <Handle type="target" position={down ? Position.Top : Position.Left} isConnectable={false} />
      <button
        type="button"
        className="task-node-button nodrag"
        aria-label={`Task ${task.id}: ${task.title}, ${state}. Show its steps`}
        aria-pressed={selected}
      >
        <span className="task-node-head">
          <span className="badge badge-task">{task.id}</span>
          <span className={`state-chip state-${node.state}`}>
            {state}
            {node.state === 'in_progress' && node.startedAt !== undefined && (
              <Elapsed since={node.startedAt} />
            )}
            {node.usage?.cost !== undefined && ` · ${formatDollars(node.usage.cost)}`}
          </span>
        </span>
        <span className="task-node-title">{task.title}</span>
        {task.check && <code className="task-node-check">✔ {task.check}</code>}
      </button>
      <Handle type="source" position={down ? Position.Bottom : Position.Right} isConnectable={false} />
    </div>
  );
}

function Elapsed({ since }: { since: number }) {
  const now = useNow(1000);
  return <> · {formatDuration(now - since)}</>;
}
