import type { PlanTask, TaskState } from '../plan/task-graph.js';
import { fillTemplate, loadTemplate } from './template.js';

/** A task finished in this run, with what the model said it did. */
export interface CompletedTask {
  id: string;
  title: string;
  summary: string;
}

/** One tool call of the current task, as the TOOL RESULTS section lists it. */
export interface TaskToolResult {
  call: string;
  isError: boolean;
  output: string;
}

export interface TaskPromptInput {
  goal: string;
  tasks: readonly PlanTask[];
  states: ReadonlyMap<string, TaskState>;
  current: PlanTask;
  /** Completed tasks, in the order they completed (earlier plans included). */
  completed: readonly CompletedTask[];
  /** This task's calls so far, one line each (the full outputs are in the conversation). */
  toolResults: readonly TaskToolResult[];
}

const STATE_MARKS: Record<TaskState, string> = {
  completed: '[x]',
  in_progress: '[~]',
  pending: '[ ]',
  failed: '[!]',
  blocked: '[-]',
  skipped: '[s]',
  cancelled: '[-]',
  stopped: '[ ]',
};

/** Fills the task-tracking prompt: the orchestrator's view of the plan, for one task's turn. */
export function buildTaskPrompt(input: TaskPromptInput): string {
  const { tasks, states, current } = input;
  const lines = tasks.map((task, index) => {
    const state = states.get(task.id) ?? 'pending';
    const number = `${index + 1}.`;
    if (task.id === current.id) return `${number} [>] ${task.title} ← CURRENT`;
    const suffix =
      state === 'completed'
        ? ' ✓'
        : state === 'in_progress'
          ? ' (in progress, another turn)'
          : state === 'pending'
            ? ''
            : ` (${state})`;
    return `${number} ${STATE_MARKS[state]} ${task.title}${suffix}`;
  });
  const remaining = tasks.filter(
    (task) => states.get(task.id) !== 'completed' && states.get(task.id) !== 'skipped',
  ).length;
  const completed =
    input.completed.length === 0
      ? '(none yet)'
      : input.completed.map((task) => `Task ${task.id}: "${task.summary}"`).join('\n');
  return fillTemplate(loadTemplate('task'), {
    goal: input.goal,
    task_list: lines.join('\n'),
    number: String(tasks.indexOf(current) + 1),
    title: current.title,
    description: current.description,
    check: current.check ? `\nCheck: the task closes only when \`${current.check}\` exits 0.` : '',
    completed,
    tool_results: renderToolResults(input.toolResults),
    total: String(tasks.length),
    remaining: String(remaining),
  });
}

const MAX_RESULT_LINE_CHARS = 160;

function renderToolResults(results: readonly TaskToolResult[]): string {
  if (results.length === 0) return '(no tool calls yet for this task)';
  const rendered = results.map((result, index) => {
    const firstLine = result.output.split('\n').find((line) => line.trim() !== '') ?? '';
    return `${index + 1}. ${result.call} → ${result.isError ? 'ERROR' : 'ok'}: ${firstLine.slice(0, MAX_RESULT_LINE_CHARS)}`;
  });
  return `${rendered.join('\n')}\n(The full outputs are in the tool results of this conversation.)`;
}
