import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ApiHealth } from '../../src/events/api.js';
import { App } from './app/app.js';
import './app/app.css';
import { HealthContext, StoreContext } from './app/store-context.js';
import { api } from './connection/api.js';
import { SessionStore } from './connection/session-store.js';

const store = new SessionStore();
store.connect();
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

render(null);
api.health().then(render, () => render(null));
