import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ApiHealth } from '../../../src/events/api.js';
import type { SessionStore, StoreState } from '../connection/session-store.js';

/** The page's store, given to every component by App. */
export const StoreContext = createContext<SessionStore | null>(null);

/** The server's settings (`GET /api/health`), once loaded. */
export const HealthContext = createContext<ApiHealth | null>(null);

/** The store's state (re-rendering on change) and the store for its actions. */
export function useStore(): [StoreState, SessionStore] {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore outside StoreContext');
  return [useSyncExternalStore(store.subscribe, store.getState), store];
}

/** The server's health answer (defaults of the run controls, the model), or null while loading. */
export function useHealth(): ApiHealth | null {
  return useContext(HealthContext);
}
