/**
 * What makes a base URL unsafe to use or to show: it is sent requests (with the user's key and
 * goal) and printed in the trust question, so nothing in it may hide or fake what is shown.
 */

// C0 and C1 controls, DEL, and every kind of whitespace (a URL has none; they let a URL carry
// an erase-line or a fake question into the terminal, or look like another one).
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\s\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/u;

/**
 * Why `value` cannot be a base URL, or undefined when it can: it must be an http or https URL
 * with no control characters or whitespace, no user name or password (userinfo) and no
 * fragment (`#…`).
 */
export function baseUrlProblem(value: string): string | undefined {
  if (CONTROL_OR_SPACE.test(value)) return 'it contains control characters or whitespace';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'it must start with http:// or https://';
  if (url.username !== '' || url.password !== '' || value.slice(0, value.indexOf(url.host)).includes('@'))
    return 'it holds a user name or password (user:password@); put credentials in the environment instead';
  if (value.includes('#')) return 'it has a fragment (#…), which no server receives';
  return undefined;
}

/** The origin of a base URL (`https://host:port`), for showing on a line of its own. */
export function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}
