import { describe, expect, it } from 'vitest';
import { NON_ANSWER_LIMIT } from '../../../src/agent/loop/non-answer.js';
import type { ServerEvent } from '../../../src/events/registry.js';
import { type MockTurn, mockModel, promptText } from '../../helpers/mock-model.js';
import { autoApprove, runWithHarness } from '../../helpers/run-harness.js';
import { reasonTurn } from './roa-test-turns.js';

const repeat = (turn: MockTurn, times = NON_ANSWER_LIMIT): MockTurn[] =>
  Array.from({ length: times }, () => turn);
const jsonTurn = (value: unknown): MockTurn => ({ text: JSON.stringify(value) });

describe('replies that are no answer (empty, cut off, filtered, reasoning only)', () => {
  it.each([
    ['an empty reply', { text: '' }, /empty reply/],
    ['a whitespace reply', { text: '  \n\t ' }, /empty reply/],
    ['a reply cut off by the token limit', { text: 'The answer is', finishReason: 'length' }, /cut off/],
    ['a filtered reply', { text: 'I', finishReason: 'content-filter' }, /content filter/],
  ] as [string, MockTurn, RegExp][])(
    'fails the run after %s, never completes it',
    async (_name, turn, reason) => {
      const model = mockModel(repeat(turn));
      const { result } = await runWithHarness({ model });
      expect(result.status).toBe('failed');
      expect(result.reason).toMatch(reason);
      expect(result.finalAnswer).toBeUndefined();
      expect(model.mock.doStreamCalls).toHaveLength(NON_ANSWER_LIMIT);
    },
  );

  it('asks the model to continue after a cut-off reply and takes the complete answer', async () => {
    const model = mockModel([
      { text: 'Half of an ans', finishReason: 'length' },
      (options) => {
        expect(promptText(options)).toMatch(/cut off at the output token limit/);
        return { text: 'The whole answer.' };
      },
    ]);
    const { result } = await runWithHarness({ model });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('The whole answer.');
  });

  it('json protocol: a reply with only reasoning is no answer', async () => {
    const model = mockModel([
      jsonTurn({ reasoning: 'I think it is done.', tool_calls: [] }),
      (options) => {
        expect(promptText(options)).toMatch(/had only "reasoning"/);
        return jsonTurn({ tool_calls: [], final_answer: 'Here it is.' });
      },
    ]);
    const { result } = await runWithHarness({ model, protocol: 'json' });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Here it is.');

    const stubborn = mockModel(repeat(jsonTurn({ reasoning: 'Thinking…', tool_calls: [] })));
    const failed = await runWithHarness({ model: stubborn, protocol: 'json' });
    expect(failed.result.status).toBe('failed');
    expect(failed.result.reason).toMatch(/only reasoning/);
  });

  it('roa: an empty tool step fails the run instead of completing it', async () => {
    const turns: MockTurn[] = [];
    for (let step = 0; step < NON_ANSWER_LIMIT; step++)
      turns.push(reasonTurn('Thinking.', 'answer'), { text: '' });
    const model = mockModel(turns);
    const { result } = await runWithHarness({ model, loop: 'roa' });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/empty reply/);
  });

  it('plan mode: a task whose replies are cut off fails, and an empty final answer is not accepted', async () => {
    const plan = {
      name: 'plan_actions',
      args: { tasks: [{ id: 't1', title: 'Task t1', description: 'Do t1', depends_on: [] }] },
    };
    const cutOff = mockModel([
      { toolCalls: [plan] },
      ...repeat({ text: 'Working on', finishReason: 'length' }),
    ]);
    const task = await runWithHarness({ model: cutOff, planApprover: autoApprove });
    expect(task.result.status).toBe('failed');
    expect(task.result.reason).toMatch(/cut off/);

    const emptyFinal = mockModel([
      { toolCalls: [plan] },
      { toolCalls: [{ name: 'task_completed', args: { summary: 'done t1' } }] },
      ...repeat({ text: ' ' }),
    ]);
    const final = await runWithHarness({ model: emptyFinal, planApprover: autoApprove });
    expect(final.result.status).toBe('failed');
    expect(final.result.reason).toMatch(/empty reply/);
  });

  it('a run the content filter stopped ends with agent_completion refused: true; one cut off does not', async () => {
    const filtered = await runWithHarness({
      model: mockModel(repeat({ text: '', finishReason: 'content-filter' })),
    });
    expect(filtered.result.status).toBe('failed');
    expect(filtered.result.refused).toBe(true);
    expect(completion(filtered.events)).toMatchObject({ status: 'failed', refused: true });

    const cutOff = await runWithHarness({
      model: mockModel(repeat({ text: 'Half', finishReason: 'length' })),
    });
    expect(cutOff.result.status).toBe('failed');
    expect(completion(cutOff.events)).not.toHaveProperty('refused');
    // Only the last of the replies in a row counts: a filtered one, then empty ones, is no refusal.
    const thenEmpty = await runWithHarness({
      model: mockModel([{ text: '', finishReason: 'content-filter' }, { text: '' }, { text: '' }]),
    });
    expect(thenEmpty.result.status).toBe('failed');
    expect(completion(thenEmpty.events)).not.toHaveProperty('refused');
  });

  it('plan mode: a task the content filter stopped, the plan aborted, ends the run refused: true', async () => {
    const plan = {
      name: 'plan_actions',
      args: { tasks: [{ id: 't1', title: 'Task t1', description: 'Do t1', depends_on: [] }] },
    };
    const model = mockModel([{ toolCalls: [plan] }, ...repeat({ text: '', finishReason: 'content-filter' })]);
    const { result, events } = await runWithHarness({ model, planApprover: autoApprove, onFailure: 'abort' });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/aborted after task t1 failed/);
    expect(completion(events)).toMatchObject({ status: 'failed', refused: true });
  });
});

function completion(events: ServerEvent[]): ServerEvent | undefined {
  return events.find((event) => event.type === 'agent_update' && event.update_type === 'agent_completion');
}
