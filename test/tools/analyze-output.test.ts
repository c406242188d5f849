import { describe, expect, it } from 'vitest';
import { analyzeOutputTool, MAX_ANALYZED_OUTPUT_CHARS } from '../../src/tools/builtin/analyze-output.js';
import { answeringModel, useToolTestBed } from '../helpers/tool-context.js';

describe('analyze_output', () => {
  const bed = useToolTestBed();

  it('asks the model for root cause, location and fix, and returns its answer', async () => {
    const model = answeringModel('Root cause: missing import.\nLocation: src/a.ts:3\nFix: import b.\n');
    bed().ctx.model = model;
    const result = await analyzeOutputTool.run(
      { output: "src/a.ts(3,1): error TS2304: Cannot find name 'b'.", question: 'Why does tsc fail?' },
      bed().ctx,
    );
    expect(result.isError).toBe(false);
    expect(result.output).toBe('Root cause: missing import.\nLocation: src/a.ts:3\nFix: import b.');
    expect(result.display).toBe('Root cause: missing import.');
    expect(model.requests).toHaveLength(1);
    const [request] = model.requests;
    expect(request?.system).toMatch(/root cause/i);
    expect(request?.system).toMatch(/file and line/i);
    expect(request?.system).toMatch(/fix/i);
    expect(request?.prompt).toContain('Why does tsc fail?');
    expect(request?.prompt).toContain("error TS2304: Cannot find name 'b'.");
    expect(request?.signal).toBe(bed().ctx.signal);
  });

  it('sends the head and tail of very long output', async () => {
    const model = answeringModel('ok');
    bed().ctx.model = model;
    const output = `FIRST\n${'noise\n'.repeat(50_000)}LAST ERROR`;
    await analyzeOutputTool.run({ output, question: 'What failed?' }, bed().ctx);
    const prompt = model.requests[0]?.prompt ?? '';
    expect(prompt.length).toBeLessThan(MAX_ANALYZED_OUTPUT_CHARS + 200);
    expect(prompt).toContain('FIRST');
    expect(prompt).toContain('LAST ERROR');
    expect(prompt).toContain('lines elided');
  });

  it('makes an empty answer an error result', async () => {
    bed().ctx.model = answeringModel('  \n');
    const result = await analyzeOutputTool.run({ output: 'x', question: 'y' }, bed().ctx);
    expect(result.isError).toBe(true);
  });

  it('turns a failing model call into an error result', async () => {
    bed().ctx.model = {
      async complete() {
        throw new Error('rate limited');
      },
    };
    const result = await analyzeOutputTool.run({ output: 'x', question: 'y' }, bed().ctx);
    expect(result).toMatchObject({ isError: true, output: 'analyze_output failed: rate limited' });
  });
});
