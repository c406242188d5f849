import { baseUrlProblem } from '../model/base-url.js';
import { contextLimitsFor } from '../model/context-limits.js';
import { checkEndpointTrust } from '../model/endpoint-trust.js';
import { priceOf } from '../model/prices.js';
import { describeProviders, envValue, PROVIDERS } from '../model/providers.js';
import { ModelConfigError, type ResolvedModel } from '../model/types.js';
import { visionOf } from '../model/vision.js';
import { heldProviderKeys } from '../util/provider-keys.js';
import { configFilePaths, loadConfigFile, type TaskweaveConfig } from './config-file.js';
import { checkWorkspaceModel } from './workspace-model.js';

/** Where the model name came from (`config`: the user's own config; `workspace`: the workspace's). */
export type ModelSource = 'flag' | 'env' | 'config' | 'api-key' | 'workspace';

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
 * --model flag, TASKWEAVE_MODEL, the user config's `model`, a default for an API key found in
 * the environment, the workspace config's `model` (once accepted, see workspace-model.ts; never
 * a script model). Nothing configured, an unknown provider, a missing key or base URL, or a
 * broken config file is a ModelConfigError that says how to fix it.
 */
export async function resolveModel(
  options: ResolveModelOptions,
): Promise<ResolvedModel & { source: ModelSource; config: TaskweaveConfig }> {
  // The keys the CLI took out of the process environment at start-up (see holdProviderKeys).
  options = { ...options, env: { ...heldProviderKeys(), ...options.env } };
  if (options.baseUrl !== undefined) {
    const problem = baseUrlProblem(options.baseUrl);
    if (problem !== undefined)
      throw new ModelConfigError(`The --base-url is not a usable base URL: ${problem}.`);
  }
  const { config, sources } = await loadConfigFile(options);
  const [projectFile = '', userFile = ''] = configFilePaths(options);
  for (const key of ['trustedBaseUrls', 'workspaceModels', 'queuedModels'] as const) {
    if (sources[key] === projectFile && config[key] !== undefined) {
      throw new ModelConfigError(
        `The workspace config ${projectFile} sets "${key}"; only your own config ${userFile} may.`,
      );
    }
  }
  const choice = chooseModelName(options, config.model, sources.model, projectFile);
  if (choice.source === 'workspace' && choice.name.startsWith('script:')) {
    throw new ModelConfigError(
      `The workspace config ${projectFile} names a script model ("${choice.name}"); a script model is never taken from a workspace config (its script would call tools as the model). Pass it yourself with --model if you mean it.`,
    );
  }
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
  // The config file's baseUrl goes with the same file's model, or with openai-compatible (whose
  // key is its own): a workspace file must not send a well-known API key from the environment,
  // for a model chosen elsewhere (another file included), to the server it names.
  const baseUrlFromWorkspace = sources.baseUrl === projectFile;
  const baseUrlGoesWithModel = baseUrlFromWorkspace
    ? choice.source === 'workspace'
    : choice.source === 'config' && sources.baseUrl === sources.model;
  const configBaseUrl =
    baseUrlGoesWithModel || providerName === 'openai-compatible' ? config.baseUrl : undefined;
  const workspaceBaseUrl =
    options.baseUrl === undefined && configBaseUrl !== undefined && baseUrlFromWorkspace
      ? configBaseUrl
      : undefined;
  // What only the workspace chose is used once the user accepted it for this workspace.
  if (choice.source === 'workspace' || workspaceBaseUrl !== undefined) {
    checkWorkspaceModel(
      {
        workspace: options.cwd,
        workspaceFile: projectFile,
        userFile,
        ...(choice.source === 'workspace' ? { model: choice.name } : {}),
        ...(workspaceBaseUrl === undefined ? {} : { baseUrl: workspaceBaseUrl }),
      },
      config.workspaceModels ?? [],
    );
  }
  checkEndpointTrust({
    provider: providerName,
    workspaceBaseUrl,
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
  const price = priceOf(choice.name, config.prices);
  const vision = visionOf(choice.name, config.vision, model);
  return { id: choice.name, model, context, timeouts, price, vision, source: choice.source, config };
}

/**
 * The model name, from the first of: the flag, the environment, the user's config, the default
 * for an API key found, and last the workspace config's (what the user chose always wins).
 */
function chooseModelName(
  options: ResolveModelOptions,
  configModel: string | undefined,
  configPath: string | undefined,
  projectFile: string,
): { name: string; source: ModelSource; origin: string } {
  const flag = options.model?.trim();
  if (flag) return { name: flag, source: 'flag', origin: 'the --model flag' };
  const fromEnv = envValue(options.env, MODEL_ENV);
  if (fromEnv !== undefined) return { name: fromEnv, source: 'env', origin: MODEL_ENV };
  const fromWorkspace = configPath === projectFile;
  if (configModel !== undefined && !fromWorkspace)
    return { name: configModel.trim(), source: 'config', origin: `${configPath}` };
  for (const candidate of API_KEY_DEFAULTS) {
    const variable = candidate.variables.find((name) => envValue(options.env, name) !== undefined);
    if (variable !== undefined) return { name: candidate.model, source: 'api-key', origin: variable };
  }
  if (configModel !== undefined)
    return { name: configModel.trim(), source: 'workspace', origin: `${configPath}` };
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
