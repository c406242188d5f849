import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../src/tools/text/truncate.js';
import { useToolTestBed } from '../helpers/tool-context.js';

const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes text.',
  whenToUse: 'To echo.',
  whenNotToUse: 'Never in production.',
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  readOnly: true,
  async execute(args) {
    if (args.text === 'throw') throw new Error('boom');
    return { output: args.text.repeat(args.times ?? 1), display: 'echoed', isError: false };
  },
});

const closeTool = defineTool({
  name: 'close',
  description: 'Closes the task.',
  whenToUse: 'To close.',
  whenNotToUse: 'Never in production.',
  parameters: z.object({ summary: z.string(), fail: z.boolean().optional() }),
  readOnly: true,
  async execute({ summary, fail }) {
    return { output: 'noted', isError: fail === true, effect: { kind: 'task_completed', summary } };
  },
});

describe('defineTool', () => {
  const bed = useToolTestBed();

  it('puts when to use and when not to use into the description', () => {
    expect(echoTool.description).toBe(
      'Echoes text.\n\nWhen to use: To echo.\nWhen not to use: Never in production.',
    );
  });

  it('turns invalid arguments into an error result the model can act on', async () => {
    const result = await echoTool.run({ text: 3, times: 0 }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^The echo tool was called with invalid arguments:\n- text: .+\n- times: .+\n/,
    );
    expect(result.output.endsWith('Rewrite the input so that it satisfies the schema.')).toBe(true);
  });

  it('shows the user why the arguments were invalid on one line, without the instruction to the model', async () => {
    const result = await echoTool.run({ text: 3, times: 0 }, bed().ctx);
    expect(result.display).toMatch(/^invalid arguments: text: .+; times: .+$/);
    expect(result.display).not.toContain('Rewrite the input');
  });

  it('turns a thrown error into an error result', async () => {
    const result = await echoTool.run({ text: 'throw' }, bed().ctx);
    expect(result).toMatchObject({ output: 'echo failed: boom', isError: true });
  });

  it('truncates long output in the middle and times the call', async () => {
    const result = await echoTool.run({ text: 'x\n', times: 50_000 }, bed().ctx);
    expect(result.output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
    expect(result.output).toMatch(/\n… \[\d+ characters, \d+ lines elided\] …\n/);
    expect(result.display).toBe('echoed');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('passes a control effect through with the result, but not from a failed call', async () => {
    const ok = await closeTool.run({ summary: 'wrote it' }, bed().ctx);
    expect(ok.effect).toEqual({ kind: 'task_completed', summary: 'wrote it' });
    const failed = await closeTool.run({ summary: 'wrote it', fail: true }, bed().ctx);
    expect(failed.effect).toBeUndefined();
    const invalid = await closeTool.run({}, bed().ctx);
    expect(invalid.isError).toBe(true);
    expect(invalid.effect).toBeUndefined();
  });
});
