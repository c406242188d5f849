import { heldProviderKeys } from '../util/provider-keys.js';
import { configFilePaths, loadConfigFile, type TaskweaveConfig } from './config-file.js';
import { contextLimitsFor } from './context-limits.js';
import { checkEndpointTrust } from './endpoint-trust.js';
import { describeProviders, envValue, PROVIDERS } from './providers.js';
import { ModelConfigError, type ResolvedModel } from './types.js';

/** Where the model name came from. */
export type ModelSource = 'flag' | 'env' | 'config' | 'api-key';

export interface ResolveModelOptions {
  /** The --model flag. */
  model?: string;
  /** The --base-url flag; wins over the config file's baseUrl. */
  baseUrl?: string;
  /** The project folder: `.taskweave/config.json` is looked for here, script paths resolve here. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The environment variable that names the model. */
export const MODEL_ENV = 'TASKWEAVE_MODEL';

/** The model used when only an API key is configured; the first key found wins. */
const API_KEY_DEFAULTS: readonly { variables: string[]; model: string }[] = [
  { variables: ['OPENAI_API_KEY'], model: 'openai:gpt-4.1' },
  { variables: ['ANTHROPIC_API_KEY'], model: 'anthropic:claude-sonnet-4-5' },
  { variables: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'], model: 'google:gemini-2.5-pro' },
];

/**
 * Chooses and builds the model. The name (`provider:model`) comes from the first of: the
 * --model flag, TASKWEAVE_MODEL, the config file's `model`, a default for an API key found in
 * the environment. Nothing configured, an unknown provider, a missing key or base URL, or a
 * broken config file is a ModelConfigError that says how to fix it.
 */
export async function resolveModel(
  options: ResolveModelOptions,
): Promise<ResolvedModel & { source: ModelSource; config: TaskweaveConfig }> {
  // The keys the CLI took out of the process environment at start-up (see holdProviderKeys).
  options = { ...options, env: { ...heldProviderKeys(), ...options.env } };
  const { config, sources } = await loadConfigFile(options);
  const choice = chooseModelName(options, config.model, sources.model);
  const separator = choice.name.indexOf(':');
  const providerName = separator === -1 ? '' : choice.name.slice(0, separator);
  const modelName = separator === -1 ? '' : choice.name.slice(separator + 1).trim();
  const provider = PROVIDERS.find((candidate) => candidate.name === providerName);
  if (provider === undefined) {
    const problem =
      separator === -1 ? 'does not name a provider' : `has an unknown provider "${providerName}"`;
    throw new ModelConfigError(
      `The model "${choice.name}" (from ${choice.origin}) ${problem}. Model names are provider:model, with one of these providers:\n${describeProviders()}`,
    );
  }
  if (modelName === '') {
    throw new ModelConfigError(
      `The model "${choice.name}" (from ${choice.origin}) names no model after "${providerName}:"; for example ${provider.example}.`,
    );
  }
  // The config file's baseUrl goes with the config file's model, or with openai-compatible (whose
  // key is its own): a workspace file must not send a well-known API key from the environment,
  // for a model chosen elsewhere (another file included), to the server it names.
  const baseUrlGoesWithModel = choice.source === 'config' && sources.baseUrl === sources.model;
  const configBaseUrl =
    baseUrlGoesWithModel || providerName === 'openai-compatible' ? config.baseUrl : undefined;
  const [projectFile = '', userFile = ''] = configFilePaths(options);
  if (sources.trustedBaseUrls === projectFile && config.trustedBaseUrls !== undefined) {
    throw new ModelConfigError(
      `The workspace config ${projectFile} sets "trustedBaseUrls"; only your own config ${userFile} may.`,
    );
  }
  checkEndpointTrust({
    provider: providerName,
    workspaceBaseUrl:
      options.baseUrl === undefined && configBaseUrl !== undefined && sources.baseUrl === projectFile
        ? configBaseUrl
        : undefined,
    workspaceFile: projectFile,
    userFile,
    trusted: config.trustedBaseUrls ?? [],
    env: options.env,
  });
  const model = await provider.create(modelName, {
    baseUrl: options.baseUrl ?? configBaseUrl,
    cwd: options.cwd,
    env: options.env,
  });
  // The config file is returned too, so that callers need not read it a second time.
  const context = contextLimitsFor(choice.name, config.context);
  const timeouts = { firstTokenMs: config.firstTokenTimeoutMs, idleMs: config.streamIdleTimeoutMs };
  return { id: choice.name, model, context, timeouts, source: choice.source, config };
}

function chooseModelName(
  options: ResolveModelOptions,
  configModel: string | undefined,
  configPath: string | undefined,
): { name: string; source: ModelSource; origin: string } {
  const flag = options.model?.trim();
  if (flag) return { name: flag, source: 'flag', origin: 'the --model flag' };
  const fromEnv = envValue(options.env, MODEL_ENV);
  if (fromEnv !== undefined) return { name: fromEnv, source: 'env', origin: MODEL_ENV };
  if (configModel !== undefined)
    return { name: configModel.trim(), source: 'config', origin: `${configPath}` };
  for (const candidate of API_KEY_DEFAULTS) {
    const variable = candidate.variables.find((name) => envValue(options.env, name) !== undefined);
    if (variable !== undefined) return { name: candidate.model, source: 'api-key', origin: variable };
  }
  throw new ModelConfigError(noModelMessage(options));
}

function noModelMessage(options: ResolveModelOptions): string {
  const [projectConfig, userConfig] = configFilePaths(options);
  const keys = API_KEY_DEFAULTS.map(
    (candidate) => `${candidate.variables.join(' or ')} (uses ${candidate.model})`,
  );
  return [
    'No model is configured. Choose one in any of these ways (the first one set wins):',
    '  1. the --model flag, e.g. --model openai:gpt-4.1',
    `  2. the ${MODEL_ENV} environment variable, e.g. ${MODEL_ENV}=anthropic:claude-sonnet-4-5`,
    `  3. "model" in a config file: ${projectConfig} or ${userConfig}, e.g. { "model": "ollama:qwen2.5-coder:7b" }`,
    `  4. an API key in the environment: ${keys.join(', ')}`,
    'Model names are provider:model, with one of these providers:',
    describeProviders(),
  ].join('\n');
}
