import { TOKEN_FRAGMENT_KEY } from '../../../src/events/access-token.js';

/** Where this tab keeps the token: sessionStorage, of this origin (port included) and this tab only. */
const STORAGE_KEY = 'taskweave.token';

const FRAGMENT = new RegExp(`^#${TOKEN_FRAGMENT_KEY}=([A-Za-z0-9_-]+)$`);

/** The token when sessionStorage cannot be used (storage disabled): it lasts until a reload. */
let inMemory: string | undefined;

/**
 * Takes the access token out of the URL `taskweave serve` printed (`/#token=…`): it is kept in
 * sessionStorage and the fragment is removed from the address bar without a new history entry,
 * so it stays out of the history, bookmarks and screen shares. A token in the URL replaces the
 * one kept: a restarted server prints a new one. Call it before anything reads the route.
 * Whether the URL had a token.
 */
export function adoptAccessToken(): boolean {
  const match = FRAGMENT.exec(window.location.hash);
  if (!match) return false;
  inMemory = match[1]!;
  try {
    sessionStorage.setItem(STORAGE_KEY, inMemory);
  } catch {}
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return true;
}

/**
 * The printed URL opened in a tab that shows the app already: only the fragment changes, so the
 * browser does not load the page again. The new token is taken and the page loaded with it.
 */
export function reloadOnNewToken(): void {
  window.addEventListener('hashchange', () => {
    if (adoptAccessToken()) window.location.reload();
  });
}

/** The token this tab has, or undefined when it was opened without the printed URL. */
export function accessToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? inMemory;
  } catch {
    return inMemory;
  }
}
