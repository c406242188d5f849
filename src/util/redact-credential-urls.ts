/**
 * A URL with a password in its user part: `scheme://user:password@host…` (the user may be empty,
 * as in `redis://:password@host`). The password runs to the last `@` before the next `/`,
 * whitespace or quote, so one with an unescaped `@` is taken whole.
 */
const CREDENTIAL_URL = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#'"`]*):([^\s/'"`]*)@/gi;

/** What a redacted password reads as. */
export const REDACTED_PASSWORD = '[redacted]';

/**
 * The text with the password of every credential-bearing URL replaced by `[redacted]`
 * (`postgres://u:[redacted]@h/db`): a store URL or remote a command printed is stored, shown and
 * sent without it. The user name and host stay: they say which URL it was.
 */
export function redactCredentialUrls(text: string): string {
  return text.replace(CREDENTIAL_URL, `$1:${REDACTED_PASSWORD}@`);
}
