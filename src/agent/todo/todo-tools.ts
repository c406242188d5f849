import { z } from 'zod';
import { fillSection } from '../../prompts/template.js';
import { type ToolTexts, toolTexts } from '../../prompts/tool-texts.js';
import { DEFAULT_QUEUE } from '../../store/defaults.js';
import type { TaskQueue } from '../../store/ports.js';
import type { Task } from '../../store/rows.js';
import { builtSchema } from '../../tools/built-schemas.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/types.js';
import { titleOf } from '../../util/title.js';

/** The template of the to-do tools' model-facing texts (src/prompts/todo-tools.md). */
const TEXTS = 'todo-tools';
const MIN_ID_PREFIX = 4;
/** The most tasks one run may add to the to-do list; further todo_add calls are refused. */
export const MAX_TODO_ADDITIONS_PER_RUN = 20;

// The tools' parameters: module constants, so that the build converts them to JSON Schema once
// (tools/built-schemas.ts), not each run.
const TODO_ADD_PARAMETERS = builtSchema(
  'todo_add',
  z.object({
    description: z
      .string()
      .min(1)
      .describe('What the task must achieve, complete enough to be worked on alone.'),
  }),
);
const TODO_LIST_PARAMETERS = builtSchema('todo_list', z.object({}));

/** The parameters of todo_complete and todo_fail: the task, and the text its end is recorded with. */
function settleParameters(textField: 'result_summary' | 'reason', textDescription: string) {
  return z.object({
    task_id: z.string().min(MIN_ID_PREFIX).describe('An id from todo_list (or its unique start).'),
    [textField]: z.string().min(1).describe(textDescription),
  });
}
const TODO_COMPLETE_PARAMETERS = builtSchema(
  'todo_complete',
  settleParameters('result_summary', 'What was done and how it was verified.'),
);
const TODO_FAIL_PARAMETERS = builtSchema(
  'todo_fail',
  settleParameters('reason', 'Why the task cannot be done.'),
);

/** What the to-do tools work on: the workspace's persistent queue. */
export interface TodoContext {
  tasks: TaskQueue;
  sessionId: string;
  /** The queue task of the request being worked on now: the agent does not close it itself. */
  ownTaskId?: string;
}

/**
 * The persistent to-do list as agent tools (one set per run; at most MAX_TODO_ADDITIONS_PER_RUN
 * additions): todo_add, todo_list, todo_complete and todo_fail (named
 * apart from the plan's control tools, task_completed and fail_task, which close the current task).
 * The list lives in SQLite and outlives the process; `taskweave work` (or the next run) works it.
 */
export function todoTools(context: TodoContext): Tool[] {
  const { tasks } = context;
  // One set of to-do tools is made per run: this counts the run's additions.
  let added = 0;
  return [
    defineTool({
      name: 'todo_add',
      ...toolTexts(TEXTS, 'todo-add'),
      readOnly: false,
      parameters: TODO_ADD_PARAMETERS,
      async execute({ description }) {
        if (added >= MAX_TODO_ADDITIONS_PER_RUN) {
          return {
            output: fillSection(TEXTS, 'todo-add-refused', { limit: String(MAX_TODO_ADDITIONS_PER_RUN) }),
            isError: true,
          };
        }
        added += 1;
        const title = titleOf(description);
        const task = await tasks.add({
          title,
          description,
          sessionId: context.sessionId,
          queue: DEFAULT_QUEUE,
        });
        const position =
          (await tasks.listActive(DEFAULT_QUEUE)).findIndex((candidate) => candidate.id === task.id) + 1;
        return {
          output: fillSection(TEXTS, 'todo-add-added', { id: task.id, position: String(position), title }),
          display: `#${position}`,
          isError: false,
        };
      },
    }),
    defineTool({
      name: 'todo_list',
      ...toolTexts(TEXTS, 'todo-list'),
      readOnly: true,
      parameters: TODO_LIST_PARAMETERS,
      async execute() {
        const active = await tasks.listActive(DEFAULT_QUEUE);
        if (active.length === 0)
          return { output: 'The to-do list is empty.', display: 'empty', isError: false };
        const lines = active.map(
          (task, index) =>
            `${index + 1}. ${task.id} [${task.status}]${task.id === context.ownTaskId ? ' (the request you are working on)' : ''} ${task.title}`,
        );
        return { output: lines.join('\n'), display: `${active.length} open`, isError: false };
      },
    }),
    settleTool(context, {
      name: 'todo_complete',
      change: 'complete',
      ...toolTexts(TEXTS, 'todo-complete'),
      textField: 'result_summary',
      parameters: TODO_COMPLETE_PARAMETERS,
    }),
    settleTool(context, {
      name: 'todo_fail',
      change: 'fail',
      ...toolTexts(TEXTS, 'todo-fail'),
      textField: 'reason',
      parameters: TODO_FAIL_PARAMETERS,
    }),
  ];
}

/** todo_complete and todo_fail: the same tool, finishing a task one way or the other. */
function settleTool(
  context: TodoContext,
  spec: ToolTexts & {
    name: string;
    change: 'complete' | 'fail';
    textField: 'result_summary' | 'reason';
    parameters: ReturnType<typeof settleParameters>;
  },
): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    whenToUse: spec.whenToUse,
    whenNotToUse: spec.whenNotToUse,
    readOnly: false,
    parameters: spec.parameters,
    async execute(args) {
      const text = String(args[spec.textField]);
      const task = await settle(context, String(args.task_id), spec.change, text);
      const state = spec.change === 'complete' ? 'completed' : 'marked failed';
      return { output: `Task ${task.id} ("${task.title}") is ${state}.`, display: state, isError: false };
    },
  });
}

async function settle(
  context: TodoContext,
  reference: string,
  change: 'complete' | 'fail',
  text: string,
): Promise<Task> {
  const matches = (await context.tasks.listAll({ queue: DEFAULT_QUEUE })).filter((task) =>
    task.id.startsWith(reference),
  );
  if (matches.length === 0)
    throw new Error(`There is no task ${reference} on the to-do list (see todo_list).`);
  if (matches.length > 1)
    throw new Error(`${reference} matches ${matches.length} tasks; give more of the id.`);
  const task = matches[0]!;
  if (task.id === context.ownTaskId) {
    throw new Error('That is the request you are working on now; it closes by itself when you finish.');
  }
  return context.tasks.settle(task.id, change, text);
}
