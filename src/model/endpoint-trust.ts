import { envValue } from './providers.js';
import { ModelConfigError } from './types.js';

/** The providers that send an API key from the environment, and the variables it comes from. */
const KEYED_PROVIDERS: Record<string, readonly string[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  'openai-compatible': ['OPENAI_COMPATIBLE_API_KEY'],
};

export interface EndpointTrustOptions {
  provider: string;
  /** The base URL a workspace's config file chose, or undefined when the user chose it (flag, user file, env). */
  workspaceBaseUrl: string | undefined;
  /** That workspace config file. */
  workspaceFile: string;
  /** The user config file, where trusted endpoints are kept. */
  userFile: string;
  /** `trustedBaseUrls` from the user config file (never from a workspace's). */
  trusted: readonly string[];
  env: NodeJS.ProcessEnv;
}

/**
 * A workspace config (which a cloned repository brings along, or an agent could write) may
 * point the model at another server; it must not make taskweave send the user's API key there.
 * A workspace-chosen base URL for a provider that would send a key is refused unless the user's
 * own config lists it in `trustedBaseUrls`. The error names the file and how to allow it.
 */
export function checkEndpointTrust(options: EndpointTrustOptions): void {
  const url = options.workspaceBaseUrl;
  if (url === undefined) return;
  const variables = KEYED_PROVIDERS[options.provider];
  const sent = variables?.find((variable) => envValue(options.env, variable) !== undefined);
  if (sent === undefined) return;
  if (options.trusted.some((trusted) => sameEndpoint(trusted, url))) return;
  throw new ModelConfigError(
    `The workspace config ${options.workspaceFile} sends the ${options.provider} model to ${url}, which would receive your ${sent}. ` +
      `If you trust that server, add it to your own config ${options.userFile}: "trustedBaseUrls": ["${url}"] ` +
      '(or pass --base-url yourself); otherwise remove "baseUrl" from the workspace config.',
  );
}

function sameEndpoint(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
