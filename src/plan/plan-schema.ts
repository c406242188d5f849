import { z } from 'zod';

/** The argument of the `plan_actions` tool. */
export const planTasksSchema = z.object({
  tasks: z
    .array(
      z.object({
        id: z.string().min(1).describe('Short unique id ("t1", "setup").'),
        title: z.string().describe('A few words.'),
        description: z.string().describe('The objective in enough detail to work on it alone.'),
        depends_on: z
          .array(z.string())
          .default([])
          .describe('Ids of the tasks that must be finished first; empty when it can start at once.'),
        check: z
          .string()
          .optional()
          .describe(
            'A shell command that proves the task is done, e.g. "npm run build"; the task closes only when it exits 0.',
          ),
      }),
    )
    .describe('The tasks of the plan. Independent tasks run in parallel; the plan must have no cycles.'),
});
