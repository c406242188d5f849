import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunControl } from '../../../src/agent/state/control.js';
import { coreTools } from '../../../src/tools/registry.js';
import { type MockTurn, mockModel, promptText } from '../../helpers/mock-model.js';
import { eventKinds, runWithHarness } from '../../helpers/run-harness.js';
import { observeTurn, phaseKinds, phaseOf, reasonTurn, updatesOf } from './roa-test-turns.js';

const writeA = { name: 'write_file', args: { path: 'a.txt', content: 'alpha\n' } };
const readA = { name: 'read_file', args: { path: 'a.txt' } };

describe('the reason → act → observe loop (roa)', () => {
  it.each<['native' | 'json', MockTurn, MockTurn]>([
    ['native', { toolCalls: [writeA] }, { toolCalls: [readA] }],
    [
      'json',
      { text: JSON.stringify({ tool_calls: [writeA] }) },
      { text: JSON.stringify({ tool_calls: [readA] }) },
    ],
  ])('runs reason, act, observe in order in every step (%s protocol)', async (protocol, act1, act2) => {
    const model = mockModel([
      reasonTurn('Nothing exists yet.', 'write a.txt'),
      act1,
      observeTurn('a.txt was written.', true),
      reasonTurn('Now verify it.', 'read a.txt back'),
      act2,
      observeTurn('a.txt holds alpha.', false, 'Wrote a.txt and read it back.'),
    ]);
    const { result, events, workspace } = await runWithHarness({ model, loop: 'roa', protocol });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('Wrote a.txt and read it back.');
    expect(result.steps).toBe(2);
    expect(await readFile(path.join(workspace.root, 'a.txt'), 'utf8')).toBe('alpha\n');

    const calls = model.mock.doStreamCalls;
    expect(calls.map(phaseOf)).toEqual(['reason', 'act', 'observe', 'reason', 'act', 'observe']);
    expect(phaseKinds(eventKinds(events))).toEqual([
      'agent_start',
      'agent_turn_start',
      'agent_reason',
      'tool_start',
      'tool_complete',
      'agent_observe',
      'agent_turn_start',
      'agent_reason',
      'tool_start',
      'tool_complete',
      'agent_observe',
      'agent_completion',
      'response_complete',
    ]);
    expect(events[0]).toMatchObject({ update_type: 'agent_start', loop: 'roa' });
    expect(updatesOf(events, 'agent_reason')[0]).toMatchObject({ step: 1, content: 'Nothing exists yet.' });
    expect(
      updatesOf(events, 'agent_observe').map((event) => 'should_continue' in event && event.should_continue),
    ).toEqual([true, false]);
    // Every phase's tokens are recorded under its phase.
    const usage = updatesOf(events, 'model_usage').map(
      (event) => 'phase' in event && `${event.step}:${event.phase}`,
    );
    expect(usage).toEqual(['1:reason', '1:act', '1:observe', '2:reason', '2:act', '2:observe']);

    // Reason and Observe are plain calls: no tool can be called, and no JSON reply format is asked for.
    const [reason, act, observe] = calls;
    if (protocol === 'native') {
      expect(reason!.toolChoice).toEqual({ type: 'none' });
      expect(observe!.toolChoice).toEqual({ type: 'none' });
      expect(act!.toolChoice).toEqual({ type: 'auto' });
    } else {
      expect(JSON.stringify(act!.prompt[0])).toContain('# Reply format');
      expect(JSON.stringify(reason!.prompt[0])).not.toContain('# Reply format');
    }
    expect(promptText(reason!)).toContain('=== REASON (step 1) ===');
    // The tool step sees the reasoning; Observe sees the step's tool results.
    expect(promptText(act!)).toContain('Your reasoning for step 1 (before acting):\nNothing exists yet.');
    expect(promptText(act!)).toContain('Plan: write a.txt');
    expect(promptText(observe!)).toMatch(/1\. write_file\("a\.txt".*\) → ok/);
    // The next step's Reason starts from what the previous step observed.
    expect(promptText(calls[3]!)).toContain('Your observation of step 1:\na.txt was written.');
  });

  it('finishes when Observe says so, with the tool step text as the answer when final_answer is null', async () => {
    const model = mockModel([
      reasonTurn('The question needs no tool.', 'answer directly', true),
      { text: 'The answer is 42.' },
      observeTurn('The answer was given.', false),
    ]);
    const { result, events } = await runWithHarness({ model, loop: 'roa' });
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'The answer is 42.', steps: 1 });
    expect(model.mock.doStreamCalls).toHaveLength(3);
    expect(promptText(model.mock.doStreamCalls[1]!)).toContain('You judged the work done');
    expect(events.at(-1)).toMatchObject({ type: 'response_complete', final_answer: 'The answer is 42.' });
  });

  it('goes on after a tool step without tool calls while Observe says to continue', async () => {
    const model = mockModel([
      reasonTurn('Let me think.', 'think'),
      { text: 'I am not done yet.' },
      observeTurn('Nothing was done yet.', true),
      reasonTurn('Now write it.', 'write a.txt'),
      { toolCalls: [writeA] },
      observeTurn('Written.', false, 'Wrote a.txt.'),
    ]);
    const { result } = await runWithHarness({ model, loop: 'roa' });
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Wrote a.txt.', steps: 2 });
  });

  it('takes a missing or malformed JSON block as free text and goes on, bounded by max steps', async () => {
    const model = mockModel([
      { text: 'I will write the file first.' },
      { toolCalls: [writeA] },
      { text: 'It looks written.\n```json\n{ "observation": "written", "should_continue": fal\n```' },
      { text: 'Reading it back. {"plan": broken' },
      { toolCalls: [readA] },
      { text: 'Still going.' },
      { text: 'never asked' },
    ]);
    const { result, events } = await runWithHarness({ model, loop: 'roa', maxSteps: 2 });
    expect(result.status).toBe('max_steps');
    expect(model.mock.doStreamCalls).toHaveLength(6);
    expect(updatesOf(events, 'agent_reason').map((event) => 'content' in event && event.content)).toEqual([
      'I will write the file first.',
      'Reading it back. {"plan": broken',
    ]);
    const observed = updatesOf(events, 'agent_observe');
    expect(observed[0]).toMatchObject({ should_continue: true });
    expect('content' in observed[0]! && observed[0].content).toContain('It looks written.');
    expect(observed[1]).toMatchObject({ content: 'Still going.', should_continue: true });
  });

  it.each([
    ['while its model call runs', 'call'],
    ['after its model call, before the tool step', 'agent_reason'],
  ] as const)('does not start the tool step when a stop is requested during Reason (%s)', async (_, when) => {
    let control: RunControl | undefined;
    const model = mockModel([
      () => {
        if (when === 'call') control?.stop();
        return reasonTurn('About to write.', 'write a.txt');
      },
      { toolCalls: [writeA] },
    ]);
    const { result, events, workspace } = await runWithHarness({
      model,
      loop: 'roa',
      onEvent: (event, runControl) => {
        if (event.type !== 'agent_update') return;
        if (event.update_type === 'agent_start') control = runControl;
        if (event.update_type === when) runControl.stop();
      },
    });
    expect(result.status).toBe('stopped');
    expect(model.mock.doStreamCalls.map(phaseOf)).toEqual(['reason']);
    const kinds = eventKinds(events);
    expect(kinds.filter((kind) => kind === 'agent_stopped')).toHaveLength(1);
    expect(kinds).not.toContain('tool_start');
    const file = await readFile(path.join(workspace.root, 'a.txt'), 'utf8').catch(() => 'absent');
    expect(file).toBe('absent');
  });

  it('does not observe when a stop is requested during the tool step', async () => {
    const model = mockModel([
      reasonTurn('A long command.', 'sleep'),
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30', timeout_ms: 60_000 } }] },
      observeTurn('never reached', true),
    ]);
    const { result } = await runWithHarness({
      model,
      loop: 'roa',
      tools: coreTools,
      onEvent: (event, control) => {
        if (event.type === 'tool_start') setTimeout(() => control.stop(), 100);
      },
    });
    expect(result.status).toBe('stopped');
    expect(model.mock.doStreamCalls.map(phaseOf)).toEqual(['reason', 'act']);
  });

  it('asks the user from the tool step (request_input) and observes the answer', async () => {
    const model = mockModel([
      reasonTurn('I do not know the colour.', 'ask the user'),
      { toolCalls: [{ name: 'request_input', args: { question: 'Which colour?' } }] },
      (options) => {
        expect(promptText(options)).toMatch(/request_input\("Which colour\?"\) → ok\n.*blue/);
        return observeTurn('The user wants blue.', false, 'Blue it is.');
      },
    ]);
    const questions: string[] = [];
    const { result, events } = await runWithHarness({
      model,
      loop: 'roa',
      inputProvider: async (request) => {
        questions.push(request.question);
        return 'blue';
      },
    });
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Blue it is.' });
    expect(questions).toEqual(['Which colour?']);
    const kinds = phaseKinds(eventKinds(events));
    expect(kinds.indexOf('agent_request_input')).toBeGreaterThan(kinds.indexOf('agent_reason'));
    expect(kinds.indexOf('agent_user_input')).toBeLessThan(kinds.indexOf('agent_observe'));
  });
});
