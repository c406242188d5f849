import type { Random } from './random.js';

/** The marker of a task prompt before the task made any call (src/prompts/task-prompt.ts). */
const FRESH_TASK = '(no tool calls yet for this task)';
/** What a call whose effect is unknown after a crash tells the model (UNKNOWN_RESULT, orphanResult). */
const EFFECT_UNKNOWN = 'effect is unknown';
/** Each task writes a file this large: a kill during its write would leave it half-written. */
export const OUTPUT_BYTES = 128 * 1024;

/** One generated goal: its plan's task ids and the script model file that works it. */
export interface CrashGoal {
  taskIds: string[];
  script: unknown;
}

/** The content task `id` writes to out/<id>.txt: checked whole at the end. */
export function outputFor(id: string): string {
  const line = `${id} `.padEnd(63, '.');
  return `${line}\n`.repeat(Math.ceil(OUTPUT_BYTES / 64)).slice(0, OUTPUT_BYTES);
}

/**
 * A plan of 3–6 tasks, a chain or a fan-out (tasks run in parallel). Each task appends its id to
 * log.txt with a plain `echo >>` (run twice, it shows twice), then writes out/<id>.txt, then
 * closes itself. A task resumed after a call of unknown effect does what a careful model does:
 * it checks the log before appending (as the unknown-result message asks). Latencies are random
 * so that kills land in model calls, commands and writes alike.
 */
export function crashGoal(random: Random): CrashGoal {
  const count = random.int(3, 6);
  const fan = random.chance(0.5);
  const taskIds = Array.from({ length: count }, (_, index) => `t${index + 1}`);
  const latency = () => random.int(10, 150);
  const tasks = taskIds.map((id, index) => ({
    id,
    title: `Step ${id}`,
    description: `Append ${id} to log.txt and write out/${id}.txt`,
    depends_on: index === 0 ? [] : fan ? ['t1'] : [taskIds[index - 1]],
  }));
  const turns = [
    { phase: 'plan', latencyMs: latency(), toolCalls: [{ name: 'plan_actions', args: { tasks } }] },
    ...taskIds.flatMap((id) => {
      const write = { name: 'write_file', args: { path: `out/${id}.txt`, content: outputFor(id) } };
      return [
        {
          task: id,
          when: FRESH_TASK,
          latencyMs: latency(),
          toolCalls: [
            { name: 'run_command', args: { command: `echo ${id} >> log.txt; sleep 0.${random.int(1, 2)}` } },
          ],
        },
        {
          task: id,
          when: EFFECT_UNKNOWN,
          latencyMs: latency(),
          toolCalls: [
            { name: 'run_command', args: { command: `grep -qx ${id} log.txt || echo ${id} >> log.txt` } },
          ],
        },
        {
          task: id,
          latencyMs: latency(),
          toolCalls: [write, { name: 'task_completed', args: { summary: `${id} done` } }],
        },
      ];
    }),
    {
      when: 'tasks are done',
      latencyMs: latency(),
      toolCalls: [{ name: 'final_answer', args: { answer: `All ${count} steps are done.` } }],
    },
  ];
  return { taskIds, script: { turns } };
}
