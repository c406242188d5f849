import { describe, expect, it } from 'vitest';
import { extractJsonBlock } from '../../../src/agent/loop/json-block.js';
import { readObservation } from '../../../src/agent/loop/observe-phase.js';
import { readReason } from '../../../src/agent/loop/reason-phase.js';

describe('the JSON block of a Reason or Observe reply', () => {
  it('takes the last fenced block that holds an object, and keeps the text around it', () => {
    const reply =
      'First `{}` thoughts.\n```json\n{ "plan": "old" }\n```\nThen:\n```\n{ "plan": "new" }\n```\nBye.';
    expect(extractJsonBlock(reply)).toEqual({
      value: { plan: 'new' },
      text: 'First `{}` thoughts.\n```json\n{ "plan": "old" }\n```\nThen:\n\nBye.',
    });
  });

  it('takes a bare object: the whole reply, or one after prose', () => {
    expect(extractJsonBlock('{"finish": true}')).toEqual({ value: { finish: true }, text: '' });
    expect(extractJsonBlock('I am done. {"observation": "ok", "nested": {"a": 1}}')).toEqual({
      value: { observation: 'ok', nested: { a: 1 } },
      text: 'I am done.',
    });
  });

  it('finds nothing in free text, in a malformed block or in a non-object', () => {
    expect(extractJsonBlock('Just thinking aloud.')).toBeUndefined();
    expect(extractJsonBlock('```json\n{ "plan": "x", }\n```')).toBeUndefined();
    expect(extractJsonBlock('```json\n[1, 2]\n```')).toBeUndefined();
  });

  it('reads Reason fields, falling back to free text', () => {
    expect(
      readReason(
        'Look first.\n```json\n{"plan":"read a.ts","tools_to_consider":["read_file",3],"finish":false}\n```',
      ),
    ).toEqual({
      content: 'Look first.',
      plan: 'read a.ts',
      toolsToConsider: ['read_file'],
      finish: false,
      structured: true,
    });
    expect(readReason('{"plan": "only the plan"}')).toMatchObject({
      content: 'only the plan',
      structured: true,
    });
    expect(readReason(' no block ')).toEqual({
      content: 'no block',
      plan: undefined,
      toolsToConsider: [],
      finish: false,
      structured: false,
    });
  });

  it('reads Observe fields; without a block, or without a boolean should_continue, the loop goes on', () => {
    expect(
      readObservation('{"observation":"done","should_continue":false,"final_answer":"Built it."}'),
    ).toEqual({
      content: 'done',
      shouldContinue: false,
      finalAnswer: 'Built it.',
      structured: true,
    });
    expect(readObservation('{"observation":"hm","should_continue":"no","final_answer":null}')).toMatchObject({
      shouldContinue: true,
      finalAnswer: undefined,
    });
    expect(readObservation('All good, stop now.')).toMatchObject({
      content: 'All good, stop now.',
      shouldContinue: true,
      structured: false,
    });
  });
});
