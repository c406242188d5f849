import ELK from 'elkjs/lib/elk.bundled.js';
import type { PlanTask } from '../../../src/plan/task-graph.js';

/** The size of a task's box in the graph. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 88;

/** Which way the layers go: left to right, or top to bottom. */
export type LayoutDirection = 'RIGHT' | 'DOWN';

const elk = new ELK();

/**
 * The direction that draws a plan largest in a panel of this size: layers left to right in a
 * wide panel, top to bottom in a tall or narrow one (the side panel beside the conversation, a
 * phone), where left to right would shrink the text to a few pixels.
 */
export function layoutDirection(width: number, height: number): LayoutDirection {
  return width >= height * 1.3 ? 'RIGHT' : 'DOWN';
}

/** Where each task's box goes: layers in `direction`, dependencies before dependents (elkjs, layered). */
export async function layoutPlan(
  tasks: readonly PlanTask[],
  direction: LayoutDirection = 'RIGHT',
): Promise<Map<string, { x: number; y: number }>> {
  const ids = new Set(tasks.map((task) => task.id));
  const graph = await elk.layout({
    id: 'plan',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': direction,
      'elk.layered.spacing.nodeNodeBetweenLayers': direction === 'RIGHT' ? '60' : '44',
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
