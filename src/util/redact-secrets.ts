import { redactProviderKeys } from './provider-keys.js';
import { redactCredentialUrls } from './redact-credential-urls.js';

/**
 * The text without the secrets taskweave knows how to find: the providers' key values and the
 * passwords of credential-bearing URLs. Applied to everything a tool gives back (define-tool.ts)
 * and to background commands' output lines before they are stored or sent.
 */
export function redactSecrets(text: string): string {
  return redactCredentialUrls(redactProviderKeys(text));
}
