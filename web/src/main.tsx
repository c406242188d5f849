import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ApiHealth } from '../../src/events/api.js';
import { App } from './app/app.js';
import './app/app.css';
import { NoAccess } from './app/no-access.js';
import { HealthContext, StoreContext } from './app/store-context.js';
import {
  accessToken,
  adoptAccessToken,
  askOtherTabs,
  reloadOnNewToken,
  shareWithOtherTabs,
} from './connection/access-token.js';
import { ApiRequestError, api } from './connection/api.js';
import { SessionStore } from './connection/session-store.js';

// Before anything reads the route or talks to the server: the token leaves the address bar.
adoptAccessToken();
reloadOnNewToken();
const store = new SessionStore();
const root = createRoot(document.getElementById('root')!);

function render(health: ApiHealth | null) {
  root.render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <HealthContext.Provider value={health}>
          <App model={health?.model} />
        </HealthContext.Provider>
      </StoreContext.Provider>
    </StrictMode>,
  );
}

function refuse() {
  store.disconnect();
  root.render(<NoAccess />);
}

/** Whether the server refuses this tab's token (a restarted server has a new one). */
async function refused(): Promise<boolean> {
  try {
    await api.health();
    return false;
  } catch (error) {
    return error instanceof ApiRequestError && error.status === 401;
  }
}

function start() {
  shareWithOtherTabs();
  store.connect();
  render(null);
  api.health().then(render, (error: unknown) => {
    if (error instanceof ApiRequestError && error.status === 401) refuse();
    else render(null);
  });
  // A connection lost for good because the server restarted: say so instead of reconnecting forever.
  let checking = false;
  store.subscribe(() => {
    if (store.getState().connection !== 'reconnecting' || checking) return;
    checking = true;
    void refused().then((yes) => {
      checking = false;
      if (yes) refuse();
    });
  });
}

if (accessToken() !== undefined) start();
else void askOtherTabs().then((token) => (token === undefined ? refuse() : start()));
