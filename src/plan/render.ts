import type { TaskGraph } from './task-graph.js';

/**
 * The plan as plain text for people, one step per topological layer (what runs in parallel sits
 * together), ending with the critical path. No colours: front ends add their own.
 *
 * ```
 * Step 1 (2 in parallel)
 *   [setup] Create the project — npm init and tsconfig
 *   [docs] Write the README — …
 * Step 2
 *   [code] Write src/index.ts — … (after: setup)
 *       check: npx tsc --noEmit
 * Critical path: 2 tasks (setup → code)
 * ```
 */
export function renderPlanLayers(graph: TaskGraph): string {
  const lines: string[] = [];
  for (const [index, layer] of graph.layers().entries()) {
    lines.push(layer.length > 1 ? `Step ${index + 1} (${layer.length} in parallel)` : `Step ${index + 1}`);
    for (const id of layer) {
      const task = graph.get(id)!;
      const description = oneLine(task.description);
      const dependencies = graph.dependenciesOf(id);
      const after = dependencies.length > 0 ? ` (after: ${dependencies.join(', ')})` : '';
      lines.push(`  [${id}] ${oneLine(task.title)}${description === '' ? '' : ` — ${description}`}${after}`);
      // What will decide that the task is done, under its line.
      if (task.check) lines.push(`      check: ${oneLine(task.check)}`);
    }
  }
  const length = graph.criticalPathLength();
  lines.push(
    `Critical path: ${length} ${length === 1 ? 'task' : 'tasks'} (${graph.criticalPath().join(' → ')})`,
  );
  return lines.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
