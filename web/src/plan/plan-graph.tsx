import '@xyflow/react/dist/style.css';
import { Background, type Edge, MarkerType, ReactFlow, useReactFlow, useStore } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PlanView } from '../../../src/events/session-view.js';
import { type LayoutDirection, layoutDirection, layoutPlan, NODE_HEIGHT, NODE_WIDTH } from './layout.js';
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
  const box = useRef<HTMLDivElement>(null);
  const direction = usePanelDirection(box);
  useEffect(() => {
    if (!direction) return;
    let current = true;
    setPositions(undefined);
    layoutPlan(plan.tasks, direction).then((laid) => current && setPositions(laid));
    return () => {
      current = false;
    };
  }, [plan.tasks, direction]);

  const critical = useMemo(() => new Set(plan.criticalPath), [plan.criticalPath]);
  const criticalEdges = useMemo(
    () => new Set(plan.criticalPath.slice(1).map((id, index) => `${plan.criticalPath[index]}->${id}`)),
    [plan.criticalPath],
  );
  const nodes: TaskNodeType[] = plan.tasks.map((task) => ({
    id: task.id,
    type: 'task',
    position: positions?.get(task.id) ?? { x: 0, y: 0 },
    // A task's box has a fixed size (app.css): React Flow draws a node it has no size for hidden
    // until it has measured it, and each render gives it new node objects; a node left hidden
    // (a loaded machine, 1 run in 4) could not be clicked. Its measurement refines these.
    initialWidth: NODE_WIDTH,
    initialHeight: NODE_HEIGHT,
    data: {
      task,
      node: plan.nodes[task.id] ?? { state: 'pending' },
      critical: critical.has(task.id),
      selected: selectedTask === task.id,
      direction: direction ?? 'RIGHT',
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
  return (
    <div ref={box} className="graph-box">
      {positions && direction ? (
        <Graph key={`${plan.planId}:${direction}`} nodes={nodes} edges={edges} onSelectTask={onSelectTask} />
      ) : (
        <div className="graph-placeholder muted">Laying out the plan…</div>
      )}
    </div>
  );
}

/**
 * Drawn to fit the panel, never larger than life: a small plan is not blown up, a large one
 * shrinks (and can be zoomed and panned).
 */
function Graph({
  nodes,
  edges,
  onSelectTask,
}: {
  nodes: TaskNodeType[];
  edges: Edge[];
  onSelectTask: (taskId: string) => void;
}) {
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodeClick={(_event, node) => onSelectTask(node.id)}
      fitView
      fitViewOptions={FIT_VIEW}
      minZoom={0.3}
      nodesConnectable={false}
      proOptions={{ hideAttribution: true }}
      colorMode="system"
    >
      <Background gap={16} size={1} />
      <FitOnResize />
    </ReactFlow>
  );
}

const FIT_VIEW = { padding: 0.08, maxZoom: 1 };

/** Fits the plan again when the panel changes size (a window made narrower, a phone turned). */
function FitOnResize() {
  const { fitView } = useReactFlow();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  useEffect(() => {
    if (width > 0 && height > 0) void fitView(FIT_VIEW);
  }, [width, height, fitView]);
  return null;
}

/** The layout direction for the panel's current size; undefined until it is measured. */
function usePanelDirection(box: React.RefObject<HTMLDivElement | null>): LayoutDirection | undefined {
  const [direction, setDirection] = useState<LayoutDirection>();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      if (width > 0 && height > 0) setDirection(layoutDirection(width, height));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return direction;
}
