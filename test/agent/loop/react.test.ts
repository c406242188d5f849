import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPETITION_FAIL_LIMIT, SAME_FAILURE_LIMIT } from '../../../src/agent/loop/recovery.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { coreTools } from '../../../src/tools/registry.js';
import { mockModel, promptText } from '../../helpers/mock-model.js';
import { eventKinds, runWithHarness } from '../../helpers/run-harness.js';

/** A tool that sleeps and records when it ran, to see what overlapped. */
function timedTool(name: string, readOnly: boolean, log: { name: string; start: number; end: number }[]) {
  return defineTool({
    name,
    description: `test tool ${name}`,
    whenToUse: 'in tests',
    whenNotToUse: 'never',
    readOnly,
    parameters: z.object({ id: z.string() }),
    async execute({ id }) {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 80));
      log.push({ name: `${name}:${id}`, start, end: performance.now() });
      return { output: `${name} ${id} done`, isError: false };
    },
  });
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

describe('the tool-first loop', () => {
  it('runs the read-only calls of one reply together and the writes one at a time', async () => {
    const log: { name: string; start: number; end: number }[] = [];
    const tools = [timedTool('look', true, log), timedTool('change', false, log)];
    const model = mockModel([
      {
        toolCalls: [
          { name: 'look', args: { id: 'a' } },
          { name: 'look', args: { id: 'b' } },
          { name: 'change', args: { id: 'c' } },
          { name: 'change', args: { id: 'd' } },
        ],
      },
      { text: 'All done.' },
    ]);
    const { result, events } = await runWithHarness({ model, tools });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('All done.');
    const byName = Object.fromEntries(log.map((entry) => [entry.name, entry]));
    expect(overlaps(byName['look:a']!, byName['look:b']!)).toBe(true);
    expect(overlaps(byName['change:c']!, byName['change:d']!)).toBe(false);
    expect(byName['change:c']!.start).toBeGreaterThanOrEqual(byName['look:b']!.end);
    expect(eventKinds(events).filter((kind) => kind === 'tool_complete')).toHaveLength(4);
    expect(eventKinds(events).at(-1)).toBe('response_complete');
  });

  it('gives tool errors back to the model as results and goes on', async () => {
    const model = mockModel([
      { toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] },
      (options) => {
        expect(promptText(options)).toMatch(/missing\.txt/);
        return { toolCalls: [{ name: 'write_file', args: { path: 'missing.txt', content: 'now here\n' } }] };
      },
      { text: 'Created it.' },
    ]);
    const { result, events, workspace } = await runWithHarness({ model, tools: coreTools });
    expect(result.status).toBe('completed');
    expect(eventKinds(events)).toContain('tool_error');
    const secondCall = model.mock.doStreamCalls[1]!;
    const toolMessage = secondCall.prompt.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('error-text');
    expect(await readFile(path.join(workspace.root, 'missing.txt'), 'utf8')).toBe('now here\n');
  });

  it('passes the call tag (run id and phase) to the model on every call', async () => {
    const model = mockModel([{ text: 'Nothing to do.' }]);
    const { result } = await runWithHarness({ model });
    expect(model.mock.doStreamCalls[0]!.providerOptions?.taskweave).toEqual({
      runId: result.runId,
      phase: 'act',
    });
  });

  it(`asks the user after the same action fails ${SAME_FAILURE_LIMIT} times, and passes the answer on`, async () => {
    const failing = { name: 'run_command', args: { command: 'exit 3' } };
    const questions: string[] = [];
    const model = mockModel([
      { toolCalls: [failing] },
      { toolCalls: [failing] },
      { toolCalls: [failing] },
      (options) => {
        expect(promptText(options)).toContain('The user said: skip the build');
        return { text: 'Skipped the build as told.' };
      },
    ]);
    const { result, events } = await runWithHarness({
      model,
      tools: coreTools,
      inputProvider: async (request) => {
        questions.push(request.question);
        return 'skip the build';
      },
    });
    expect(result.status).toBe('completed');
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('run_command(exit 3) has failed 3 times');
    const kinds = eventKinds(events);
    expect(kinds).toContain('agent_request_input');
    expect(kinds).toContain('agent_user_input');
  });

  it('ends with needs_input when the failure rule needs a user and none can answer', async () => {
    const failing = { name: 'run_command', args: { command: 'exit 3' } };
    const model = mockModel([{ toolCalls: [failing] }, { toolCalls: [failing] }, { toolCalls: [failing] }]);
    const { result } = await runWithHarness({ model, tools: coreTools });
    expect(result.status).toBe('needs_input');
    expect(result.reason).toContain('has failed 3 times');
  });

  it('warns the model when it repeats the same call, and fails the run when it goes on', async () => {
    const repeat = { name: 'search_code', args: { pattern: 'needle' } };
    const steps = Array.from({ length: REPETITION_FAIL_LIMIT }, () => ({ toolCalls: [repeat] }));
    const model = mockModel(steps);
    const { result, events } = await runWithHarness({ model, tools: coreTools });
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/repeated the same call 5 times/);
    expect(promptText(model.mock.doStreamCalls[3]!)).toContain('You are repeating yourself');
    expect(
      events.filter((event) => event.type === 'agent_update' && event.update_type === 'agent_note'),
    ).toHaveLength(2);
  });

  it('ends with max_steps when the step budget runs out', async () => {
    const model = mockModel([
      { toolCalls: [{ name: 'search_code', args: { pattern: 'one' } }] },
      { toolCalls: [{ name: 'search_code', args: { pattern: 'two' } }] },
      { toolCalls: [{ name: 'search_code', args: { pattern: 'three' } }] },
    ]);
    const { result, events } = await runWithHarness({ model, tools: coreTools, maxSteps: 2 });
    expect(result.status).toBe('max_steps');
    expect(result.steps).toBe(2);
    expect(model.mock.doStreamCalls).toHaveLength(2);
    const completion = events.find((event) => event.type === 'response_complete');
    expect(completion).toMatchObject({ status: 'max_steps' });
  });

  it('stops at the step boundary and kills the command in flight', async () => {
    const model = mockModel([
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30', timeout_ms: 60_000 } }] },
      { text: 'never reached' },
    ]);
    const started = Date.now();
    const { result, events } = await runWithHarness({
      model,
      tools: coreTools,
      onEvent: (event, control) => {
        if (event.type === 'tool_start') setTimeout(() => control.stop(), 200);
      },
    });
    expect(result.status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(model.mock.doStreamCalls).toHaveLength(1);
    expect(eventKinds(events)).toContain('agent_stopped');
  });

  it('fails the run with the provider message when the model call fails for good', async () => {
    const model = mockModel([]);
    const { result } = await runWithHarness({ model });
    expect(result.status).toBe('failed');
    expect(result.reason).toContain('no step 1 scripted');
  });
});
