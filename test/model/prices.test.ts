import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config-file.js';
import { BUILT_IN_PRICES, costOf, priceOf } from '../../src/model/prices.js';
import { ModelConfigError } from '../../src/model/types.js';

describe('the price table', () => {
  it('prices the providers’ current models from the built-in table, also under a dated or -latest name', () => {
    expect(priceOf('anthropic:claude-sonnet-4-5')).toEqual({ input: 3, output: 15 });
    expect(priceOf('anthropic:claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
    expect(priceOf('anthropic:claude-3-5-haiku-latest')).toEqual({ input: 0.8, output: 4 });
    expect(priceOf('openai:gpt-4.1-2025-04-14')).toEqual({ input: 2, output: 8 });
    expect(priceOf('google:gemini-2.5-pro')).toEqual({ input: 1.25, output: 10 });
    // Every provider that bills by the token has its default model priced (resolve-model's API_KEY_DEFAULTS).
    for (const model of ['openai:gpt-4.1', 'anthropic:claude-sonnet-4-5', 'google:gemini-2.5-pro'])
      expect(BUILT_IN_PRICES[model], model).toBeDefined();
  });

  it('has no price for a model it does not know: never a guess (local models, lookalike names)', () => {
    expect(priceOf('ollama:qwen2.5-coder:7b')).toBeUndefined();
    expect(priceOf('openai-compatible:gpt-4.1')).toBeUndefined();
    expect(priceOf('openai:gpt-4.1-turbo-preview')).toBeUndefined();
    expect(priceOf('script:/tmp/a.json')).toBeUndefined();
    expect(costOf({}, { model: 'ollama:llama3', inputTokens: 1000, outputTokens: 10 })).toBeNull();
  });

  it('the config’s prices win over the built-in table for the models they name', () => {
    const configured = {
      'openai:gpt-4.1': { input: 1, output: 4 },
      'ollama:llama3': { input: 0, output: 0 },
    };
    expect(priceOf('openai:gpt-4.1', configured)).toEqual({ input: 1, output: 4 });
    expect(priceOf('openai:gpt-4o', configured)).toEqual({ input: 2.5, output: 10 });
    expect(costOf(configured, { model: 'openai:gpt-4.1', inputTokens: 500_000, outputTokens: 250_000 })).toBe(
      1.5,
    );
    expect(costOf(configured, { model: 'ollama:llama3', inputTokens: 500_000, outputTokens: 1 })).toBe(0);
  });
});

describe('prices and the budget in the config files', () => {
  let root: string;
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  const projectFile = () => path.join(cwd, '.taskweave', 'config.json');
  const userFile = () => path.join(root, 'home', '.config', 'taskweave', 'config.json');

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'taskweave-prices-'));
    cwd = path.join(root, 'project');
    await mkdir(cwd, { recursive: true });
    env = { HOME: path.join(root, 'home') };
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(file: string, content: unknown): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(content));
  }

  it('a workspace config prices only models neither the built-in table nor the user prices; the user’s win', async () => {
    await write(projectFile(), {
      prices: {
        'anthropic:claude-opus-4-5': { input: 0, output: 0 },
        'ollama:llama3': { input: 0.5, output: 0.5 },
        'openai-compatible:mine': { input: 9, output: 9 },
      },
    });
    await write(userFile(), { prices: { 'openai-compatible:mine': { input: 1, output: 2 } } });
    const { config } = await loadConfigFile({ cwd, env });
    expect(config.prices).toEqual({
      'ollama:llama3': { input: 0.5, output: 0.5 },
      'openai-compatible:mine': { input: 1, output: 2 },
    });
    // The workspace cannot make a priced model look free (and slip under the budget).
    expect(priceOf('anthropic:claude-opus-4-5', config.prices)).toEqual({ input: 5, output: 25 });
  });

  it('the lower of the two budgets applies: a workspace may tighten the user’s, not loosen it', async () => {
    await write(userFile(), { budget: { session: 2 } });
    await write(projectFile(), { budget: { session: 5 } });
    expect((await loadConfigFile({ cwd, env })).config.budget).toEqual({ session: 2 });
    await write(projectFile(), { budget: { session: 0.5 } });
    const loaded = await loadConfigFile({ cwd, env });
    expect(loaded.config.budget).toEqual({ session: 0.5 });
    expect(loaded.sources.budget).toBe(projectFile());
  });

  it('a budget that is not a positive amount is a config error naming the file', async () => {
    await write(userFile(), { budget: { session: -1 } });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(ModelConfigError);
    await write(userFile(), { budget: { sesion: 2 } });
    await expect(loadConfigFile({ cwd, env })).rejects.toThrow(/config\.json is not valid/);
  });
});
