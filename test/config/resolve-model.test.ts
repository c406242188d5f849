import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/config/resolve-model.js';
import { WorkspaceModelError } from '../../src/config/workspace-model.js';
import { ollamaBaseUrl } from '../../src/model/providers.js';
import { ScriptModel } from '../../src/model/script-model.js';
import { ModelConfigError } from '../../src/model/types.js';

let root: string;
let cwd: string;
let home: string;
/** The environment each test starts from: only HOME, never the real process environment. */
let baseEnv: NodeJS.ProcessEnv;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'taskweave-resolve-'));
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  baseEnv = { HOME: home };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeProjectConfig(content: unknown): Promise<string> {
  const file = path.join(cwd, '.taskweave', 'config.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function writeScript(relative: string): Promise<string> {
  const file = path.join(cwd, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ turns: [{ text: 'hi' }] }));
  return file;
}

async function configError(options: Parameters<typeof resolveModel>[0]): Promise<string> {
  const error = await resolveModel(options).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ModelConfigError);
  return (error as Error).message;
}

describe('resolveModel: where the model name comes from', () => {
  const allSources = async () => {
    await writeProjectConfig({ model: 'ollama:from-config' });
    return { ...baseEnv, TASKWEAVE_MODEL: 'ollama:from-env', OPENAI_API_KEY: 'sk-test' };
  };

  it('the --model flag wins over everything', async () => {
    const env = await allSources();
    const resolved = await resolveModel({ model: 'ollama:from-flag', cwd, env });
    expect(resolved).toMatchObject({ id: 'ollama:from-flag', source: 'flag' });
    expect(resolved.model.modelId).toBe('from-flag');
  });

  it('then TASKWEAVE_MODEL', async () => {
    const env = await allSources();
    expect(await resolveModel({ cwd, env })).toMatchObject({ id: 'ollama:from-env', source: 'env' });
  });

  it("then the user's config, then an API key's default: a workspace config's model overrides neither", async () => {
    const env = { ...(await allSources()), TASKWEAVE_MODEL: undefined };
    expect(await resolveModel({ cwd, env })).toMatchObject({ id: 'openai:gpt-4.1', source: 'api-key' });
    const xdg = path.join(root, 'xdg');
    await mkdir(path.join(xdg, 'taskweave'), { recursive: true });
    await writeFile(path.join(xdg, 'taskweave', 'config.json'), JSON.stringify({ model: 'ollama:user' }));
    expect(await resolveModel({ cwd, env: { ...env, XDG_CONFIG_HOME: xdg } })).toMatchObject({
      id: 'ollama:user',
      source: 'config',
    });
  });

  it("last the workspace config's, once the user accepted it for this workspace (never a script model)", async () => {
    const file = await writeProjectConfig({ model: 'ollama:from-workspace' });
    const xdg = path.join(root, 'xdg');
    const env = { ...baseEnv, XDG_CONFIG_HOME: xdg };
    const refused = await resolveModel({ cwd, env }).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(WorkspaceModelError);
    expect((refused as Error).message).toContain(file);
    expect((refused as Error).message).toContain('ollama:from-workspace');
    await mkdir(path.join(xdg, 'taskweave'), { recursive: true });
    const userFile = path.join(xdg, 'taskweave', 'config.json');
    // Accepted for another folder (or another model) is not accepted here.
    await writeFile(
      userFile,
      JSON.stringify({
        workspaceModels: [{ workspace: path.join(root, 'other'), model: 'ollama:from-workspace' }],
      }),
    );
    await expect(resolveModel({ cwd, env })).rejects.toBeInstanceOf(WorkspaceModelError);
    await writeFile(
      userFile,
      JSON.stringify({ workspaceModels: [{ workspace: cwd, model: 'ollama:from-workspace' }] }),
    );
    expect(await resolveModel({ cwd, env })).toMatchObject({
      id: 'ollama:from-workspace',
      source: 'workspace',
    });

    await writeScript('evil.json');
    await writeProjectConfig({ model: 'script:evil.json' });
    await writeFile(
      userFile,
      JSON.stringify({ workspaceModels: [{ workspace: cwd, model: 'script:evil.json' }] }),
    );
    expect(await configError({ cwd, env })).toContain(
      'a script model is never taken from a workspace config',
    );

    await writeProjectConfig({ workspaceModels: [{ workspace: cwd, model: 'ollama:x' }] });
    expect(await configError({ cwd, env })).toContain('sets "workspaceModels"; only your own config');
  });

  it('then the user config file under XDG_CONFIG_HOME', async () => {
    const xdg = path.join(root, 'xdg');
    await mkdir(path.join(xdg, 'taskweave'), { recursive: true });
    await writeFile(path.join(xdg, 'taskweave', 'config.json'), JSON.stringify({ model: 'ollama:user' }));
    const resolved = await resolveModel({
      cwd,
      env: { ...baseEnv, XDG_CONFIG_HOME: xdg, OPENAI_API_KEY: 'sk' },
    });
    expect(resolved).toMatchObject({ id: 'ollama:user', source: 'config' });
  });

  it('then an API key in the environment, in the order OpenAI, Anthropic, Google', async () => {
    const all = { ...baseEnv, OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b', GEMINI_API_KEY: 'c' };
    expect(await resolveModel({ cwd, env: all })).toMatchObject({ id: 'openai:gpt-4.1', source: 'api-key' });
    const noOpenAi = { ...all, OPENAI_API_KEY: undefined };
    expect(await resolveModel({ cwd, env: noOpenAi })).toMatchObject({ id: 'anthropic:claude-sonnet-4-5' });
    const googleOnly = { ...baseEnv, GOOGLE_GENERATIVE_AI_API_KEY: 'g' };
    expect(await resolveModel({ cwd, env: googleOnly })).toMatchObject({
      id: 'google:gemini-2.5-pro',
      source: 'api-key',
    });
    const geminiOnly = { ...baseEnv, GEMINI_API_KEY: 'g' };
    expect(await resolveModel({ cwd, env: geminiOnly })).toMatchObject({ id: 'google:gemini-2.5-pro' });
  });

  it('empty variables count as unset', async () => {
    const env = { ...baseEnv, TASKWEAVE_MODEL: '', OPENAI_API_KEY: ' ', ANTHROPIC_API_KEY: 'k' };
    expect(await resolveModel({ cwd, env })).toMatchObject({ id: 'anthropic:claude-sonnet-4-5' });
  });

  it('with nothing configured, the error lists every way to configure a model', async () => {
    const xdg = path.join(root, 'xdg');
    const message = await configError({ cwd, env: { ...baseEnv, XDG_CONFIG_HOME: xdg } });
    for (const expected of [
      '--model',
      'TASKWEAVE_MODEL',
      path.join(cwd, '.taskweave', 'config.json'),
      path.join(xdg, 'taskweave', 'config.json'),
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'GEMINI_API_KEY',
      'openai:gpt-4.1',
      'anthropic:claude-sonnet-4-5',
      'google:gemini-2.5-pro',
      'ollama:',
      'openai-compatible:',
      'TASKWEAVE_BASE_URL',
      'OLLAMA_HOST',
      'script:examples/fix-build.json',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('names the default user config path under HOME when XDG_CONFIG_HOME is unset', async () => {
    const message = await configError({ cwd, env: baseEnv });
    expect(message).toContain(path.join(home, '.config', 'taskweave', 'config.json'));
  });
});

describe('resolveModel: providers', () => {
  it.each([
    ['openai:gpt-4.1', { OPENAI_API_KEY: 'sk' }, 'openai.responses', 'gpt-4.1'],
    ['anthropic:claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'k' }, 'anthropic.messages', 'claude-sonnet-4-5'],
    [
      'google:gemini-2.5-pro',
      { GOOGLE_GENERATIVE_AI_API_KEY: 'k' },
      'google.generative-ai',
      'gemini-2.5-pro',
    ],
    ['google:gemini-2.5-flash', { GEMINI_API_KEY: 'k' }, 'google.generative-ai', 'gemini-2.5-flash'],
    ['ollama:qwen2.5-coder:7b', {}, 'ollama.chat', 'qwen2.5-coder:7b'],
    [
      'openai-compatible:my-model',
      { TASKWEAVE_BASE_URL: 'http://127.0.0.1:9/v1' },
      'openai-compatible.chat',
      'my-model',
    ],
  ])('%s builds the right provider model', async (name, extraEnv, provider, modelId) => {
    const resolved = await resolveModel({ model: name, cwd, env: { ...baseEnv, ...extraEnv } });
    expect(resolved.id).toBe(name);
    expect(resolved.model.provider).toBe(provider);
    expect(resolved.model.modelId).toBe(modelId);
  });

  it('script: loads the file relative to cwd', async () => {
    const file = await writeScript('scripts/demo.json');
    const resolved = await resolveModel({ model: 'script:scripts/demo.json', cwd, env: baseEnv });
    expect(resolved.id).toBe('script:scripts/demo.json');
    expect(resolved.model).toBeInstanceOf(ScriptModel);
    expect(resolved.model.modelId).toBe(file);
  });

  it('script: a missing file is a config error naming it', async () => {
    const message = await configError({ model: 'script:nope.json', cwd, env: baseEnv });
    expect(message).toContain(path.join(cwd, 'nope.json'));
  });

  it.each([
    ['openai:gpt-4.1', 'OPENAI_API_KEY'],
    ['anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['google:gemini-2.5-pro', 'GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY'],
  ])('%s without its key names the variable', async (name, variable) => {
    const message = await configError({ model: name, cwd, env: baseEnv });
    expect(message).toContain(variable);
  });

  it('openai-compatible without a base URL says where to set one', async () => {
    const message = await configError({ model: 'openai-compatible:m', cwd, env: baseEnv });
    expect(message).toContain('--base-url');
    expect(message).toContain('baseUrl');
    expect(message).toContain('TASKWEAVE_BASE_URL');
  });

  it('openai-compatible takes its base URL from the option or the config file', async () => {
    expect(
      await resolveModel({
        model: 'openai-compatible:m',
        baseUrl: 'http://127.0.0.1:9/v1',
        cwd,
        env: baseEnv,
      }),
    ).toMatchObject({ id: 'openai-compatible:m' });
    await writeProjectConfig({ model: 'openai-compatible:m', baseUrl: 'http://127.0.0.1:9/v1' });
    const accepted = path.join(root, 'xdg');
    await mkdir(path.join(accepted, 'taskweave'), { recursive: true });
    await writeFile(
      path.join(accepted, 'taskweave', 'config.json'),
      JSON.stringify({
        workspaceModels: [{ workspace: cwd, model: 'openai-compatible:m', baseUrl: 'http://127.0.0.1:9/v1' }],
      }),
    );
    expect(await resolveModel({ cwd, env: { ...baseEnv, XDG_CONFIG_HOME: accepted } })).toMatchObject({
      source: 'workspace',
    });
  });

  it.each([
    ['http://127.0.0.1:9/v1#\u001b[2K\rTrust https://api.example.com? [y/N] ', 'control characters'],
    ['http://127.0.0.1:9/v1#x', 'a fragment'],
    ['http://user:secret@127.0.0.1:9/v1', 'user name or password'],
    ['http://127.0.0.1:9/v1\u001b[2K', 'control characters or whitespace'],
    ['http://127.0.0.1:9/ v1', 'control characters or whitespace'],
    ['file:///etc/passwd', 'http:// or https://'],
  ])('a baseUrl %j in a config file is refused, naming the key and the file', async (url, problem) => {
    const file = await writeProjectConfig({ model: 'openai-compatible:m', baseUrl: url });
    const message = await configError({ cwd, env: baseEnv });
    expect(message).toContain(file);
    expect(message).toContain('baseUrl');
    expect(message).toContain(problem);
    expect(message).not.toContain('\u001b');
    expect(await configError({ model: 'ollama:x', baseUrl: url, cwd, env: { HOME: home } })).toContain(
      `--base-url is not a usable base URL`,
    );
  });

  it.each([
    ['foo:bar', 'unknown provider "foo"'],
    ['gpt-4.1', 'does not name a provider'],
  ])('%s is a config error listing the providers', async (name, problem) => {
    const message = await configError({ model: name, cwd, env: baseEnv });
    expect(message).toContain(problem);
    for (const provider of ['openai:', 'anthropic:', 'google:', 'ollama:', 'openai-compatible:', 'script:']) {
      expect(message).toContain(provider);
    }
  });

  it('a provider without a model name is a config error', async () => {
    const message = await configError({ model: 'ollama:', cwd, env: baseEnv });
    expect(message).toContain('names no model');
  });

  it('says where a bad name came from', async () => {
    const file = await writeProjectConfig({ model: 'nope:x' });
    expect(await configError({ cwd, env: baseEnv })).toContain(file);
    expect(await configError({ cwd, env: { ...baseEnv, TASKWEAVE_MODEL: 'nope:x' } })).toContain(
      'TASKWEAVE_MODEL',
    );
  });
});

describe('resolveModel: broken config file', () => {
  it('reports invalid JSON with the file name', async () => {
    const file = await writeProjectConfig('{ "model": "ollama:x", }');
    const message = await configError({ cwd, env: baseEnv });
    expect(message).toContain(file);
    expect(message).toContain('not valid JSON');
  });

  it('reports an unknown key with the file name', async () => {
    const file = await writeProjectConfig({ model: 'ollama:x', temperature: 0.2 });
    const message = await configError({ cwd, env: baseEnv });
    expect(message).toContain(file);
    expect(message).toContain('temperature');
  });

  it('reports it even when --model is given', async () => {
    await writeProjectConfig({ modle: 'typo' });
    await expect(resolveModel({ model: 'ollama:x', cwd, env: baseEnv })).rejects.toThrow(/modle/);
  });
});

describe('ollamaBaseUrl', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434/v1'],
    ['localhost', 'http://localhost:11434/v1'],
    ['0.0.0.0:8080', 'http://0.0.0.0:8080/v1'],
    ['gpu-box:11434', 'http://gpu-box:11434/v1'],
    ['http://gpu-box:11434', 'http://gpu-box:11434/v1'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434/v1'],
    ['https://ollama.example.com', 'https://ollama.example.com/v1'],
    ['https://ollama.example.com/proxy/v1', 'https://ollama.example.com/proxy/v1'],
    ['[::1]:11434', 'http://[::1]:11434/v1'],
  ])('OLLAMA_HOST=%s gives %s', (host, expected) => {
    expect(ollamaBaseUrl(host)).toBe(expected);
  });

  it('rejects a host that is not a URL', async () => {
    const message = await configError({
      model: 'ollama:x',
      cwd,
      env: { ...baseEnv, OLLAMA_HOST: 'http://' },
    });
    expect(message).toContain('OLLAMA_HOST');
  });
});
