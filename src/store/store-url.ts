/*
 * Store URLs (`--store postgres://user:password@host/db`): which store a URL names, and the form
 * it may be shown in. A password never leaves this process in a message, event or log line.
 */

/** The URL schemes of a PostgreSQL store. */
const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/** What stands for a password in a URL that is shown. */
const HIDDEN = '***';

/** A store URL that cannot be used; its message shows the URL without its password. */
export class StoreUrlError extends Error {
  override name = 'StoreUrlError';
}

/** Whether `value` looks like a PostgreSQL URL (it may still be a bad one: see parsePostgresUrl). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/**
 * Checks a PostgreSQL store URL: the scheme, a host and a database name. Returns the URL as given;
 * a StoreUrlError (naming the URL without its password) otherwise.
 */
export function parsePostgresUrl(value: string): string {
  const url = tryUrl(value.trim());
  const shown = redactStoreUrl(value);
  if (url === undefined || !POSTGRES_SCHEMES.has(url.protocol.toLowerCase())) {
    throw new StoreUrlError(
      `The store ${shown} is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database.`,
    );
  }
  if (url.hostname === '' && !url.searchParams.has('host')) {
    throw new StoreUrlError(
      `The store URL ${shown} names no host: write it as postgres://user:password@host:5432/database.`,
    );
  }
  if (url.pathname.replace(/^\//, '') === '') {
    throw new StoreUrlError(
      `The store URL ${shown} names no database: add one, as in postgres://user@host:5432/taskweave.`,
    );
  }
  return value.trim();
}

/**
 * The URL as it may be shown: its password (in the user part, or a `password` parameter) as
 * `***`. Something that is not a URL, or whose user part the parser did not find (one slash after
 * the scheme), is shown as its scheme alone, since it may hold one anyway.
 */
export function redactStoreUrl(value: string): string {
  const trimmed = value.trim();
  const url = tryUrl(trimmed);
  // Read without a user part, a password lands in the path or the query: `postgres:/u:pw@h/db`
  // (one slash), `postgres://u:1?pw@h/db`. Such a URL is shown as its scheme alone.
  const userPartUnread = url !== undefined && url.username === '' && trimmed.includes('@');
  if (url === undefined || !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || userPartUnread) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
    return scheme === undefined ? '(an unreadable URL)' : `${scheme}://(unreadable)`;
  }
  if (url.password !== '') url.password = HIDDEN;
  for (const key of [...url.searchParams.keys()]) {
    if (/pass|secret|token|key/i.test(key)) url.searchParams.set(key, HIDDEN);
  }
  return url.toString();
}

/** Replaces every appearance of the URL's password in `text` (an error message from the driver). */
export function withoutPassword(text: string, storeUrl: string): string {
  const url = tryUrl(storeUrl.trim());
  let result = text.replaceAll(storeUrl, redactStoreUrl(storeUrl));
  const secrets = [url?.password, url?.searchParams.get('password') ?? undefined]
    .filter((secret): secret is string => secret !== undefined && secret !== '')
    .flatMap((secret) => [secret, safeDecode(secret)]);
  for (const secret of secrets) result = result.replaceAll(secret, HIDDEN);
  return result;
}

function tryUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
