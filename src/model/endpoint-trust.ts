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
  throw new EndpointTrustError({
    provider: options.provider,
    url,
    variable: sent,
    workspaceFile: options.workspaceFile,
    userFile: options.userFile,
  });
}

/** What an untrusted endpoint would receive, and from which files. */
export interface EndpointTrustDetails {
  /** The provider whose key would be sent, e.g. `anthropic`. */
  provider: string;
  /** The base URL the workspace config chose. */
  url: string;
  /** The environment variable the key comes from. */
  variable: string;
  /** The workspace config file that chose the URL. */
  workspaceFile: string;
  /** The user's own config file, where `trustedBaseUrls` is kept. */
  userFile: string;
}

/**
 * A workspace config sends an API key to a server the user has not trusted (exit 2). It says
 * which, so that a terminal front end can ask the user and add the URL to their own config.
 */
export class EndpointTrustError extends ModelConfigError implements EndpointTrustDetails {
  override name = 'EndpointTrustError';
  readonly provider: string;
  readonly url: string;
  readonly variable: string;
  readonly workspaceFile: string;
  readonly userFile: string;

  constructor(details: EndpointTrustDetails) {
    super(
      `The workspace config ${details.workspaceFile} sends the ${details.provider} model to ${details.url}, which would receive your ${details.variable}. ` +
        `If you trust that server, add it to your own config ${details.userFile}: "trustedBaseUrls": ["${details.url}"] ` +
        '(or pass --base-url yourself); otherwise remove "baseUrl" from the workspace config.',
    );
    this.provider = details.provider;
    this.url = details.url;
    this.variable = details.variable;
    this.workspaceFile = details.workspaceFile;
    this.userFile = details.userFile;
  }
}

/** Whether two base URLs name the same endpoint (a trailing `/` aside). */
export function sameEndpoint(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
