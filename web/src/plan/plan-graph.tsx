import '@xyflow/react/dist/style.css';
import { Background, type Edge, MarkerType, ReactFlow } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import type { PlanView } from '../../../src/events/session-view.js';
import { layoutPlan } from './layout.js';
import { TaskNode, type TaskNodeType } from './task-node.js';

const NODE_TYPES = { task: TaskNode };

/**
 * The plan as a graph: nodes are tasks, arrows dependencies, laid out in layers left to right;
 * the critical path is marked. Clicking a task selects it (the conversation then shows its steps).
 */
export default function PlanGraph({
  plan,
  selectedTask,
  onSelectTask,
}: {
  plan: PlanView;
  selectedTask: string | undefined;
  onSelectTask: (taskId: string) => void;
}) {
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }>>();
  useEffect(() => {
    let current = true;
    setPositions(undefined);
    layoutPlan(plan.tasks).then((laid) => current && setPositions(laid));
    return () => {
      current = false;
    };
  }, [plan.tasks]);

  const critical = useMemo(() => new Set(plan.criticalPath), [plan.criticalPath]);
  const criticalEdges = useMemo(
    () => new Set(plan.criticalPath.slice(1).map((id, index) => `${plan.criticalPath[index]}->${id}`)),
    [plan.criticalPath],
  );
  const nodes: TaskNodeType[] = plan.tasks.map((task) => ({
    id: task.id,
    type: 'task',
    position: positions?.get(task.id) ?? { x: 0, y: 0 },
    data: {
      task,
      node: plan.nodes[task.id] ?? { state: 'pending' },
      critical: critical.has(task.id),
      selected: selectedTask === task.id,
    },
    draggable: false,
    selectable: false,
  }));
  const edges: Edge[] = plan.tasks.flatMap((task) =>
    task.depends_on.map((dependency) => {
      const id = `${dependency}->${task.id}`;
      const onCriticalPath = criticalEdges.has(id);
      return {
        id,
        source: dependency,
        target: task.id,
        className: onCriticalPath ? 'critical' : undefined,
        animated: plan.nodes[task.id]?.state === 'in_progress',
        markerEnd: { type: MarkerType.ArrowClosed },
      };
    }),
  );
  if (!positions) return <div className="graph-placeholder muted">Laying out the plan…</div>;
  return (
    <ReactFlow
      key={plan.planId}
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodeClick={(_event, node) => onSelectTask(node.id)}
      fitView
      fitViewOptions={{ padding: 0.15 }}
      minZoom={0.3}
      nodesConnectable={false}
      proOptions={{ hideAttribution: true }}
      colorMode="system"
    >
      <Background gap={16} size={1} />
    </ReactFlow>
  );
}
