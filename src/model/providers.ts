import path from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ModelConfigError } from './types.js';

// Passed explicitly: the SDKs would otherwise read their base URL from process.env, behind the
// back of the environment resolveModel was given.
const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';
const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com/v1';
const GOOGLE_DEFAULT_URL = 'https://generativelanguage.googleapis.com/v1beta';
const OLLAMA_DEFAULT_URL = 'http://127.0.0.1:11434/v1';
/** The port Ollama listens on when OLLAMA_HOST names a host without scheme and port. */
const OLLAMA_DEFAULT_PORT = '11434';
/** The OpenAI-compatible API path of Ollama, appended when OLLAMA_HOST has no path. */
const OLLAMA_API_PATH = '/v1';

/** What a provider needs to build a model. */
export interface ProviderContext {
  /** The base URL given with --base-url or the config file's baseUrl. */
  baseUrl?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** One provider a model name may start with. */
export interface ProviderSpec {
  name: string;
  /** A full model name, for help texts. */
  example: string;
  /** What it is and which settings it reads. */
  description: string;
  create(modelName: string, context: ProviderContext): LanguageModelV3 | Promise<LanguageModelV3>;
}

// Each provider's SDK is loaded when a model of it is made, not before: a run loads one of them
// (each is about 340 KB of code), `--help` and the listings none.

/** The providers, in the order help texts list them. */
export const PROVIDERS: readonly ProviderSpec[] = [
  {
    name: 'openai',
    example: 'openai:gpt-4.1',
    description: 'OpenAI; needs OPENAI_API_KEY, base URL from --base-url, config baseUrl or OPENAI_BASE_URL',
    async create(modelName, { baseUrl, env }) {
      const apiKey = requireKey('openai', env, ['OPENAI_API_KEY']);
      const baseURL = baseUrl ?? envValue(env, 'OPENAI_BASE_URL') ?? OPENAI_DEFAULT_URL;
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey, baseURL })(modelName);
    },
  },
  {
    name: 'anthropic',
    example: 'anthropic:claude-sonnet-4-5',
    description:
      'Anthropic; needs ANTHROPIC_API_KEY, base URL from --base-url, config baseUrl or ANTHROPIC_BASE_URL',
    async create(modelName, { baseUrl, env }) {
      const apiKey = requireKey('anthropic', env, ['ANTHROPIC_API_KEY']);
      const baseURL = baseUrl ?? envValue(env, 'ANTHROPIC_BASE_URL') ?? ANTHROPIC_DEFAULT_URL;
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey, baseURL })(modelName);
    },
  },
  {
    name: 'google',
    example: 'google:gemini-2.5-pro',
    description: 'Google Gemini; needs GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY',
    async create(modelName, { baseUrl, env }) {
      const apiKey = requireKey('google', env, ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY']);
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey, baseURL: baseUrl ?? GOOGLE_DEFAULT_URL })(modelName);
    },
  },
  {
    name: 'ollama',
    example: 'ollama:qwen2.5-coder:7b',
    description: `a local Ollama at OLLAMA_HOST (default ${OLLAMA_DEFAULT_URL}), or at --base-url`,
    async create(modelName, { baseUrl, env }) {
      const baseURL = baseUrl ?? ollamaBaseUrl(envValue(env, 'OLLAMA_HOST'));
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'ollama', baseURL, includeUsage: true })(modelName);
    },
  },
  {
    name: 'openai-compatible',
    example: 'openai-compatible:my-model',
    description:
      'any OpenAI-compatible server; base URL from --base-url, config baseUrl or TASKWEAVE_BASE_URL, optional OPENAI_COMPATIBLE_API_KEY',
    async create(modelName, { baseUrl, env }) {
      const baseURL = baseUrl ?? envValue(env, 'TASKWEAVE_BASE_URL');
      if (baseURL === undefined) {
        throw new ModelConfigError(
          'The openai-compatible provider needs a base URL: pass --base-url, set "baseUrl" in the config file, or set TASKWEAVE_BASE_URL.',
        );
      }
      const apiKey = envValue(env, 'OPENAI_COMPATIBLE_API_KEY');
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        includeUsage: true,
      })(modelName);
    },
  },
  {
    name: 'script',
    example: 'script:examples/fix-build.json',
    description:
      'replays a script file of model turns (tests and demos); the path is relative to the working folder',
    async create(file, { cwd }) {
      const { loadScriptModel } = await import('./script-model.js');
      return loadScriptModel(path.resolve(cwd, file));
    },
  },
];

/** The provider list for help and error texts, one `  example  description` line each. */
export function describeProviders(): string {
  const width = Math.max(...PROVIDERS.map((provider) => provider.example.length));
  return PROVIDERS.map((provider) => `  ${provider.example.padEnd(width)}  ${provider.description}`).join(
    '\n',
  );
}

/**
 * The OpenAI-compatible base URL for an OLLAMA_HOST value. Like Ollama's own client it accepts a
 * bare `host` or `host:port` (http, port 11434); a URL without a path gets `/v1`.
 */
export function ollamaBaseUrl(host: string | undefined): string {
  if (host === undefined) return OLLAMA_DEFAULT_URL;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host);
  let url: URL;
  try {
    url = new URL(hasScheme ? host : `http://${host}`);
  } catch {
    throw new ModelConfigError(`OLLAMA_HOST (${host}) is not a valid host or URL.`);
  }
  if (!hasScheme && url.port === '') url.port = OLLAMA_DEFAULT_PORT;
  if (url.pathname === '/') url.pathname = OLLAMA_API_PATH;
  return url.toString().replace(/\/+$/, '');
}

/** An environment variable's value; empty or blank counts as unset. */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function requireKey(provider: string, env: NodeJS.ProcessEnv, variables: string[]): string {
  for (const variable of variables) {
    const value = envValue(env, variable);
    if (value !== undefined) return value;
  }
  throw new ModelConfigError(
    `The ${provider} provider needs an API key: set ${variables.join(' or ')} in the environment.`,
  );
}
