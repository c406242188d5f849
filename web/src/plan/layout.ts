import ELK from 'elkjs/lib/elk.bundled.js';
import type { PlanTask } from '../../../src/plan/task-graph.js';

/** The size of a task's box in the graph. */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 84;

const elk = new ELK();

/** Where each task's box goes: layers left to right, dependencies before dependents (elkjs, layered). */
export async function layoutPlan(tasks: readonly PlanTask[]): Promise<Map<string, { x: number; y: number }>> {
  const ids = new Set(tasks.map((task) => task.id));
  const graph = await elk.layout({
    id: 'plan',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '60',
      'elk.spacing.nodeNode': '24',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    },
    children: tasks.map((task) => ({ id: task.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: tasks.flatMap((task) =>
      task.depends_on
        .filter((dependency) => ids.has(dependency))
        .map((dependency) => ({
          id: `${dependency}->${task.id}`,
          sources: [dependency],
          targets: [task.id],
        })),
    ),
  });
  return new Map((graph.children ?? []).map((node) => [node.id, { x: node.x ?? 0, y: node.y ?? 0 }]));
}
