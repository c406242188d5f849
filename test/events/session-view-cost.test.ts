import { describe, expect, it } from 'vitest';
import type { EventPayload, ServerEvent } from '../../src/events/registry.js';
import { foldSessionEvents } from '../../src/events/session-view.js';

function stamp(payloads: EventPayload[]): ServerEvent[] {
  return payloads.map((payload, index) => ({
    ...payload,
    session_id: 'ses_1',
    run_id: 'run_1',
    seq: index + 1,
    ts: 1000 + index,
  }));
}

const START: EventPayload = {
  type: 'agent_update',
  update_type: 'agent_start',
  max_steps: 20,
  mode: 'complex',
  loop: 'react',
  model: 'openai:gpt-4.1',
  goal: 'two tasks',
};

function usage(step: number, cost: number | undefined, taskId?: string): EventPayload {
  return {
    type: 'agent_update',
    update_type: 'model_usage',
    step,
    phase: 'act',
    ...(taskId ? { task_id: taskId } : {}),
    input_tokens: 1000,
    output_tokens: 100,
    ...(cost === undefined ? {} : { cost }),
  };
}

describe('the session view counts cost per step, plan task, run and session', () => {
  it('adds up the cost the model_usage events carry; each plan task keeps its own', () => {
    const view = foldSessionEvents(
      stamp([
        START,
        usage(1, 0.0028),
        {
          type: 'agent_update',
          update_type: 'plan_proposed',
          plan_id: 'plan_1',
          tasks: [
            { id: 't1', title: 'One', description: 'one', depends_on: [] },
            { id: 't2', title: 'Two', description: 'two', depends_on: [] },
          ],
        },
        { type: 'agent_update', update_type: 'plan_approved', plan_id: 'plan_1' },
        { type: 'agent_update', update_type: 'task_started', task_id: 't1', title: 'One' },
        usage(2, 0.01, 't1'),
        usage(3, 0.02, 't1'),
        { type: 'agent_update', update_type: 'task_completed', task_id: 't1', title: 'One', summary: 'done' },
        { type: 'agent_update', update_type: 'task_started', task_id: 't2', title: 'Two' },
        usage(4, 0.005, 't2'),
      ]),
    );
    expect(view.usage).toEqual({ input: 4000, output: 400, cost: expect.closeTo(0.0378, 10) });
    expect(view.runs[0]?.usage.cost).toBeCloseTo(0.0378, 10);
    const nodes = view.plans[0]?.nodes;
    // The node keeps its usage when its state changes (completed after its calls).
    expect(nodes?.t1).toMatchObject({ state: 'completed', usage: { input: 2000, output: 200 } });
    expect(nodes?.t1?.usage?.cost).toBeCloseTo(0.03, 10);
    expect(nodes?.t2?.usage).toEqual({ input: 1000, output: 100, cost: 0.005 });
    const steps = view.items.filter((item) => item.kind === 'step');
    expect(steps.map((step) => step.usage.cost)).toEqual([0.0028, 0.01, 0.02, 0.005]);
  });

  it('a model without a price has tokens only: no cost anywhere, not a zero', () => {
    const view = foldSessionEvents(
      stamp([
        START,
        usage(1, undefined),
        usage(2, undefined),
        {
          type: 'agent_update',
          update_type: 'agent_completion',
          steps: 2,
          status: 'completed',
          input_tokens: 2000,
          output_tokens: 200,
        },
      ]),
    );
    expect(view.usage).toEqual({ input: 2000, output: 200 });
    expect(view.items.find((item) => item.kind === 'completion')).toMatchObject({
      usage: { input: 2000, output: 200 },
    });
    expect(JSON.stringify(view)).not.toContain('cost');
  });

  it('budget_exceeded is a warning in the conversation with what was spent', () => {
    const view = foldSessionEvents(
      stamp([
        START,
        usage(1, 2.5),
        { type: 'agent_update', update_type: 'budget_exceeded', step: 2, spent: 2.5, budget: 2 },
      ]),
    );
    expect(view.items.at(-1)).toMatchObject({
      kind: 'notice',
      tone: 'warning',
      text: 'Budget exceeded: the session spent $2.50 of its $2.00 budget; the run stops.',
    });
  });
});
