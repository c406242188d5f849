import { TOKEN_FRAGMENT_KEY } from '../../../src/events/access-token.js';

/** Where this tab keeps the token: sessionStorage, of this origin (port included) and this tab only. */
const STORAGE_KEY = 'taskweave.token';

const FRAGMENT = new RegExp(`^#${TOKEN_FRAGMENT_KEY}=([A-Za-z0-9_-]+)$`);

/** The channel the tabs of this origin (this server) share the token on. */
const CHANNEL = 'taskweave.token';
/** How long a tab without a token waits for another tab of this origin to give it one. */
const ASK_TABS_MS = 400;

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
  keep(match[1]!);
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

function keep(token: string): void {
  inMemory = token;
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {}
}

/** The token this tab has, or undefined when it was opened without the printed URL. */
export function accessToken(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? inMemory;
  } catch {
    return inMemory;
  }
}

/**
 * A tab opened by hand or by a middle click has an empty sessionStorage: it asks the open tabs
 * of the same origin (this server's own pages: a BroadcastChannel does not cross origins, ports
 * included) for the token, and keeps what one answers. Undefined when none does in time.
 */
export async function askOtherTabs(): Promise<string | undefined> {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(CHANNEL);
  const token = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ASK_TABS_MS);
    channel.onmessage = (message: MessageEvent<{ token?: unknown }>) => {
      const given = message.data?.token;
      if (typeof given !== 'string' || !/^[A-Za-z0-9_-]+$/.test(given)) return;
      clearTimeout(timer);
      resolve(given);
    };
    channel.postMessage({ ask: true });
  });
  channel.close();
  if (token !== undefined) keep(token);
  return token;
}

/** Answers the tabs of this origin that ask for the token. */
export function shareWithOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (message: MessageEvent<{ ask?: unknown }>) => {
    const token = accessToken();
    if (message.data?.ask === true && token !== undefined) channel.postMessage({ token });
  };
}
