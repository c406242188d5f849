import { describe, expect, it } from 'vitest';
import { taskweaveConfigSchema } from '../../src/config/config-file.js';
import {
  contextLimitsFor,
  DEFAULT_COMPACT_AT,
  DEFAULT_CONTEXT_WINDOW,
  SCRIPT_CONTEXT_WINDOW,
} from '../../src/model/context-limits.js';

describe('contextLimitsFor', () => {
  it('knows the windows of known models, by the longest matching name', () => {
    expect(contextLimitsFor('openai:gpt-4.1-mini')).toEqual({
      window: 1_047_576,
      compactAt: DEFAULT_COMPACT_AT,
    });
    expect(contextLimitsFor('anthropic:claude-sonnet-4-5').window).toBe(200_000);
    expect(contextLimitsFor('openai:gpt-4o').window).toBe(128_000);
  });

  it('assumes the default window for a model it does not know', () => {
    expect(contextLimitsFor('ollama:qwen2.5-coder:7b')).toEqual({
      window: DEFAULT_CONTEXT_WINDOW,
      compactAt: DEFAULT_COMPACT_AT,
    });
  });

  it('lets the script model compact only when the config gives it a window', () => {
    expect(contextLimitsFor('script:/tmp/s.json').window).toBe(SCRIPT_CONTEXT_WINDOW);
    expect(contextLimitsFor('script:/tmp/s.json', { script: { window: 16_000 } }).window).toBe(16_000);
  });

  it('takes the config: the model entry over the provider entry over the defaults', () => {
    const config = {
      ollama: { window: 16_384 },
      'ollama:qwen2.5-coder:7b': { compactAt: 0.5 },
      'openai:gpt-4.1': { window: 200_000, compactAt: 0.6 },
    };
    expect(contextLimitsFor('ollama:llama3', config)).toEqual({
      window: 16_384,
      compactAt: DEFAULT_COMPACT_AT,
    });
    expect(contextLimitsFor('ollama:qwen2.5-coder:7b', config)).toEqual({
      window: DEFAULT_CONTEXT_WINDOW,
      compactAt: 0.5,
    });
    expect(contextLimitsFor('openai:gpt-4.1', config)).toEqual({ window: 200_000, compactAt: 0.6 });
  });

  it('is a config key whose mistakes are caught', () => {
    expect(
      taskweaveConfigSchema.safeParse({ context: { ollama: { window: 8192, compactAt: 0.6 } } }).success,
    ).toBe(true);
    expect(taskweaveConfigSchema.safeParse({ context: { ollama: { compactAt: 1.5 } } }).success).toBe(false);
    expect(taskweaveConfigSchema.safeParse({ context: { ollama: { windw: 8192 } } }).success).toBe(false);
  });
});
