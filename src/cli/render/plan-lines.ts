import type { ServerEvent } from '../../events/registry.js';
import { renderPlanLayers } from '../../plan/render.js';
import { validatePlan } from '../../plan/task-graph.js';
import type { Style } from './terminal.js';
import { plural, wrapWords } from './text-wrap.js';

type PlanProposed = Extract<ServerEvent, { update_type: 'plan_proposed' }>;

/** Where a wrapped task line goes on: under its title, after `  [id] `. */
const TASK_CONTINUATION_INDENT = '      ';

/**
 * A proposed plan for people: a bold header, then one step per layer of the graph; on a
 * terminal (`width` given) long task lines wrap at word boundaries under their title.
 */
export function proposedPlanLines(event: PlanProposed, style: Style, width: number | undefined): string[] {
  const header = style.bold(`Proposed plan ${event.plan_id} (${plural(event.tasks.length, 'task')}):`);
  const validation = validatePlan(event.tasks);
  if (!validation.ok) return [header];
  const body = renderPlanLayers(validation.graph).split('\n');
  if (width === undefined) return [header, ...body];
  return [header, ...body.flatMap((line) => wrapWords(line, width - 1, TASK_CONTINUATION_INDENT))];
}

/** A task of the latest plan and what became of it, for the list shown at the end of a run. */
export interface PlanTaskState {
  id: string;
  title: string;
  state: string;
}

/** The list of the plan's tasks shown at the end of a run. */
export function taskListLines(tasks: readonly PlanTaskState[], style: Style): string[] {
  const marks: Record<string, string> = {
    completed: style.green('✓'),
    failed: style.red('✗'),
    blocked: style.yellow('⏸'),
    skipped: style.yellow('↷'),
    in_progress: style.yellow('…'),
    pending: style.dim('·'),
  };
  return [
    'Tasks:',
    ...tasks.map(
      (task) => `  ${marks[task.state] ?? '·'} [${task.id}] ${task.title} ${style.dim(task.state)}`,
    ),
  ];
}
