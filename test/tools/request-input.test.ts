import { describe, expect, it } from 'vitest';
import { requestInputTool } from '../../src/tools/builtin/request-input.js';
import { replyingControl, useToolTestBed } from '../helpers/tool-context.js';

describe('request_input', () => {
  const bed = useToolTestBed();

  it('is read-only', () => {
    expect(requestInputTool.readOnly).toBe(true);
  });

  it("asks the question and returns the user's answer", async () => {
    const control = replyingControl({ status: 'answered', answer: 'Use PostgreSQL.' });
    bed().ctx.control = control;
    const result = await requestInputTool.run({ question: 'Which database?' }, bed().ctx);
    expect(control.questions).toEqual(['Which database?']);
    expect(result).toMatchObject({
      isError: false,
      output: 'The user answered: Use PostgreSQL.',
      display: 'answered',
    });
  });

  it('tells the model to go on with its best judgement when nobody answers in time', async () => {
    bed().ctx.control = replyingControl({ status: 'timeout' });
    const result = await requestInputTool.run({ question: 'Which database?' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toContain('did not answer in time');
    expect(result.output).toContain('best judgement');
    expect(result.output).toContain('assumption');
  });

  it('says no user can answer in a non-interactive run, without an error', async () => {
    bed().ctx.control = replyingControl({ status: 'unavailable' });
    const result = await requestInputTool.run({ question: 'Which database?' }, bed().ctx);
    expect(result.isError).toBe(false);
    expect(result.output).toContain('No user can answer in this run');
    expect(result.output).toContain('non-interactive');
    expect(result.output).toContain('waiting for input');
  });

  it('rejects an empty question with the wrapper message', async () => {
    const control = replyingControl({ status: 'timeout' });
    bed().ctx.control = control;
    const result = await requestInputTool.run({ question: '' }, bed().ctx);
    expect(result.isError).toBe(true);
    expect(result.output).toContain('The request_input tool was called with invalid arguments');
    expect(control.questions).toEqual([]);
  });
});
