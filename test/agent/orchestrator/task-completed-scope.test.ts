import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src/events/registry.js';
import { mockModel, promptText } from '../../helpers/mock-model.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';

const plan = {
  name: 'plan_actions',
  args: {
    tasks: [
      { id: 't1', title: 'Write a', description: 'Write a.txt', depends_on: [] },
      { id: 't2', title: 'Write b', description: 'Write b.txt', depends_on: ['t1'] },
    ],
  },
};
const completed = (summary: string, taskId?: string) => ({
  name: 'task_completed',
  args: taskId === undefined ? { summary } : { summary, task_id: taskId },
});

function summaries(events: ServerEvent[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const event of events) {
    if (event.type === 'agent_update' && event.update_type === 'task_completed')
      found[event.task_id] = event.summary;
  }
  return found;
}

describe('task_completed names the task it closes', () => {
  it.each([
    ['another task of the plan', 't2', /Task "t2" is another task of the plan/],
    ['an unknown task', 't9', /There is no task "t9" in the plan/],
  ])('refuses an id of %s, naming the current task, and closes nothing', async (_name, wrongId, why) => {
    const model = mockModel([
      { toolCalls: [plan] },
      { toolCalls: [completed('b is written', wrongId)] },
      (options) => {
        const prompt = promptText(options);
        expect(prompt).toMatch(why);
        expect(prompt).toMatch(/closes only the current task, t1/);
        return { toolCalls: [completed('a is written', 't1')] };
      },
      { toolCalls: [completed('b is written')] },
      { toolCalls: [{ name: 'final_answer', args: { answer: 'Both written.' } }] },
    ]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove });
    expect(result.status).toBe('completed');
    expect(summaries(events)).toEqual({ t1: 'a is written', t2: 'b is written' });
    const refused = events.find((event) => event.type === 'tool_error' && event.name === 'task_completed');
    expect(refused).toBeDefined();
  });
});
